<%@ page contentType="text/plain;charset=ISO-8859-1" %><section>A JSP fragment, included (its page directive's content type is ignored, as the spec says).</section>
