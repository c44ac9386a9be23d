package org.pagecache.demo;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import javax.xml.parsers.DocumentBuilderFactory;
import org.junit.jupiter.api.Test;
import org.w3c.dom.Document;
import org.w3c.dom.Element;
import org.w3c.dom.NodeList;

/** Declarations of the demo's web.xml that no deployment test would notice missing. */
class WebXmlTest {
  private static final String JAKARTA_EE = "https://jakarta.ee/xml/ns/jakartaee";

  /**
   * Containers default async-supported to false for filters declared in web.xml; one such filter
   * in the chain makes a servlet's startAsync throw IllegalStateException.
   */
  @Test
  void everyFilterIsAsyncSupportedSoServletsBehindItMayStartAsync() throws Exception {
    NodeList filters = webXml().getElementsByTagNameNS(JAKARTA_EE, "filter");
    assertTrue(filters.getLength() > 0, "web.xml declares the PageCache filter");
    for (int i = 0; i < filters.getLength(); i++) {
      Element filter = (Element) filters.item(i);
      String name = filter.getElementsByTagNameNS(JAKARTA_EE, "filter-name").item(0).getTextContent().strip();
      NodeList async = filter.getElementsByTagNameNS(JAKARTA_EE, "async-supported");
      assertEquals(1, async.getLength(), "filter " + name + " declares async-supported");
      assertEquals("true", async.item(0).getTextContent().strip(), "filter " + name);
    }
  }

  private static Document webXml() throws Exception {
    DocumentBuilderFactory factory = DocumentBuilderFactory.newInstance();
    factory.setNamespaceAware(true);
    return factory.newDocumentBuilder().parse(Path.of("src/main/webapp/WEB-INF/web.xml").toFile());
  }
}
