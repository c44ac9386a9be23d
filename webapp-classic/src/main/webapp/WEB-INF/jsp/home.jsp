<%@ page contentType="text/html;charset=UTF-8" import="java.util.List,org.pagecache.classic.Newsroom" %>
<!doctype html>
<html><head><title>The Classic News</title></head>
<body>
<h1>The Classic News</h1>
<ul>
<% for (Newsroom.Article a : (List<Newsroom.Article>) request.getAttribute("articles")) { %>
  <li><a href="news/<%= a.id() %>"><%= a.title() %></a></li>
<% } %>
</ul>
</body></html>
