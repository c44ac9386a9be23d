<%@ page contentType="text/html;charset=UTF-8" isErrorPage="true" %>
<!doctype html>
<html><head><title>Not found</title></head>
<body><h1>Nothing here</h1><p>Status ${requestScope['jakarta.servlet.error.status_code']}.</p></body></html>
