<%@ page contentType="text/html;charset=UTF-8" %>
<!doctype html>
<html><head><title>Async</title></head>
<body><p>Reached after an async dispatch; the query was: <%= String.valueOf(request.getAttribute("jakarta.servlet.async.query_string")).replace("<", "&lt;") %></p></body></html>
