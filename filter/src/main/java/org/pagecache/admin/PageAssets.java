package org.pagecache.admin;

import org.pagecache.internal.stats.Event;

/**
 * The admin page's inline style sheet and script. Inline on purpose: no static-file mapping to
 * configure, no external asset, and both run under a nonce-based Content-Security-Policy.
 *
 * <p>The script only enhances: every two seconds (while the tab is visible and "update" is ticked)
 * it reads {@code api/stats} and rewrites the counters and traces with {@code textContent}, never
 * HTML, so a hostile handler name cannot become markup.
 */
final class PageAssets {
  private PageAssets() {}

  /** The trace letters (HandlerRecorder.trace()) and what they mean. */
  static final String[][] LEGEND = {
      {"H", "hit"}, {"S", "stale served"}, {"M", "miss"}, {"L", "lock (taken or waited for)"},
      {"W", "write"}, {"U", "unlock"}, {"B", "bypass"}, {"E", "store error"}};

  static final String CSS = """
      body{font:14px/1.45 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;margin:0 auto;padding:0 20px 40px;max-width:1400px;color:#1d2330;background:#fafbfc}
      h1{font-size:22px;margin:18px 0 2px}h2{font-size:17px;margin:26px 0 6px}h3{font-size:14px;margin:18px 0 6px}
      .meta,.hint,.muted{color:#5b6475}.hint{margin:0 0 8px}
      table{border-collapse:collapse;background:#fff;border:1px solid #dde1e8}
      th,td{padding:5px 8px;border-bottom:1px solid #e8ebf0;text-align:left;vertical-align:top}
      thead th{background:#f0f2f6;font-weight:600;white-space:nowrap}
      .n{text-align:right;font-variant-numeric:tabular-nums;white-space:nowrap}
      code{font:12px/1.4 ui-monospace,SFMono-Regular,Menlo,Consolas,monospace}
      thead th.n{white-space:normal;min-width:4em}
      code.policy{white-space:normal;overflow-wrap:anywhere;color:#3b4456;font-size:11px;display:block;min-width:150px;max-width:260px}
      p.note{margin:4px 0 0;font-size:12px;max-width:260px;overflow-wrap:anywhere}p.note.warn{color:#8a4b00}
      th.name{max-width:220px;overflow-wrap:anywhere}
      td.refresh{min-width:190px;font-size:13px}
      .scroll{overflow-x:auto}
      tr.just{background:#e9f7ec}
      .flash{padding:10px 14px;border-radius:6px;font-weight:500}
      .flash.ok{background:#e3f4e6;border:1px solid #8cc79a}
      .flash.error{background:#fdeaea;border:1px solid #e29b9b}
      button{font:inherit;padding:4px 12px;border:1px solid #2f6fb3;border-radius:5px;background:#2f6fb3;color:#fff;cursor:pointer}
      button:hover{background:#255b94}
      input[name=tag],input[name=url]{font:inherit;padding:4px 6px;border:1px solid #b9c0cc;border-radius:4px;min-width:280px}
      .tools{display:flex;flex-wrap:wrap;gap:8px 48px}
      .trace{display:block;word-break:break-all;font-size:13px;letter-spacing:1px}
      .t{font-family:ui-monospace,Menlo,Consolas,monospace;font-weight:600;padding:0 3px;border-radius:3px}
      .tH{color:#17803d}.tS{color:#9a6700}.tM{color:#c2410c}.tL{color:#6d28d9}.tW{color:#1d4ed8}.tU{color:#64748b}.tB{color:#6b7280}.tE{color:#dc2626;background:#fde8e8}
      .up{color:#17803d;font-weight:600}.down{color:#dc2626;font-weight:600}
      figure{margin:0}figcaption{color:#5b6475;font-size:12px}
      .key{display:inline-block;width:10px;height:10px;margin:0 4px 0 10px}.key.alloc{background:#b8d4f0}.key.used{background:#1f5f9f}
      svg.slabs{max-width:100%;height:auto;background:#fff;border:1px solid #dde1e8}
      details{margin-top:26px}summary{cursor:pointer;font-weight:600}
      """;

  static final String SCRIPT = """
      (function () {
        'use strict';
        var base = document.body.getAttribute('data-base');
        var box = document.getElementById('live');
        if (!box || !window.fetch) { return; }
        document.querySelectorAll('.js').forEach(function (el) { el.hidden = false; });
        function count(n) { return Number(n).toLocaleString('en-US'); }
        function trace(cell, letters) {
          while (cell.firstChild) { cell.removeChild(cell.firstChild); }
          for (var i = 0; i < letters.length; i++) {
            var span = document.createElement('span');
            span.className = 't' + (/[A-Z]/.test(letters[i]) ? letters[i] : '_');
            span.textContent = letters[i];
            cell.appendChild(span);
          }
        }
        function apply(stats) {
          var byName = {};
          stats.handlers.forEach(function (h) { byName[h.name] = h; });
          document.querySelectorAll('tr[data-h]').forEach(function (row) {
            var h = Object.prototype.hasOwnProperty.call(byName, row.getAttribute('data-h')) ? byName[row.getAttribute('data-h')] : null;
            if (!h) { return; }
            row.querySelectorAll('[data-f]').forEach(function (cell) {
              var f = cell.getAttribute('data-f');
              if (f === 'trace') { trace(cell, h.trace); }
              else if (f === 'hitRatio') { cell.textContent = h.hitRatio === null ? '\\u2013' : (h.hitRatio * 100).toFixed(1) + ' %'; }
              else if (typeof h[f] === 'number') { cell.textContent = count(h[f]); }
            });
          });
        }
        function update() {
          if (!box.checked || document.hidden) { return; }
          fetch(base + '/api/stats', {credentials: 'same-origin', headers: {'Accept': 'application/json'}})
            .then(function (r) { return r.ok ? r.json() : null; })
            .then(function (stats) { if (stats) { apply(stats); } })
            .catch(function () { /* offline for a moment: the next tick tries again */ });
        }
        setInterval(update, 2000);
      })();
      """;
}
