<%@ page contentType="text/html;charset=UTF-8" import="java.util.List" %>
<!doctype html>
<html><head><title>${article.title}</title></head>
<body>
<h1>${article.title}</h1>
<p>${article.body}</p>
<h2>Comments</h2>
<ul>
<% for (String c : (List<String>) request.getAttribute("comments")) { %>
  <li><%= c.replace("&", "&amp;").replace("<", "&lt;") %></li>
<% } %>
</ul>
<form method="post" action="${article.id}/comments"><input name="text"><button>Comment</button></form>
</body></html>
