/**
 * The named character references Pictor reads, declared once: XML's five (sidecar and XMP text)
 * and, for turning an HTML page or HTML release notes into plain text, those five and the
 * no-break space (read as a plain space). Maps, not objects: a name from the input never reaches
 * a prototype property (`&constructor;`).
 */

/** XML's predefined entities, the only names an XML parser knows without a DTD (case matters). */
export const XML_ENTITIES: ReadonlyMap<string, string> = new Map([
  ['amp', '&'],
  ['lt', '<'],
  ['gt', '>'],
  ['quot', '"'],
  ['apos', "'"],
]);

/** What an HTML page's text is read with (names in lower case; HTML's are case-insensitive here). */
export const HTML_TEXT_ENTITIES: ReadonlyMap<string, string> = new Map([
  ...XML_ENTITIES,
  ['nbsp', ' '],
]);
