<%@ page contentType="text/html;charset=UTF-8" isErrorPage="true" %>
<!doctype html>
<html><head><title>Error</title></head>
<body><h1>Something broke</h1><p>Status ${requestScope['jakarta.servlet.error.status_code']}.</p></body></html>
