<%@ page contentType="text/html;charset=UTF-8" %>
<!doctype html>
<html><head><title>Dispatched</title></head>
<body><p>A JSP reached through a forward: café, naïve, 3 × 4.</p></body></html>
