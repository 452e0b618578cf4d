import CXML2
import XMLSupport
// This file must not import Foundation: libxml2's headers pull in the system ICU, whose enums clash
// with Foundation's bundled ICU when both are visible in one file. Foundation-using code calls in here
// with plain Swift types.

/// A compiled XSD (libxml2 `xmlSchema`) that JUnit documents can be validated against.
///
/// Owns its C handle; not shared across threads (create one per thread or per test).
package final class JUnitSchema {
    private let schema: xmlSchemaPtr
    /// The XSD path, for messages.
    package let path: String

    /// Loads and compiles the XSD at `path`.
    package init(xsdPath path: String) throws(ReportsError) {
        self.path = path
        LibXML2.initialize()
        guard let parserContext = xmlSchemaNewParserCtxt(path) else {
            throw .schemaUnusable(path: path, reason: "libxml2 could not create a schema parser")
        }
        defer { xmlSchemaFreeParserCtxt(parserContext) }
        let collector = XMLErrorCollector()
        let box = Unmanaged.passUnretained(collector).toOpaque()
        xmlSchemaSetParserStructuredErrors(parserContext, XMLErrorCollector.callback, box)
        let compiled = withExtendedLifetime(collector) { xmlSchemaParse(parserContext) }
        guard let compiled else {
            throw .schemaUnusable(path: path, reason: collector.messages.joined(separator: "; "))
        }
        schema = compiled
    }

    deinit {
        xmlSchemaFree(schema)
    }

    /// Violations of the schema by the XML text `xml` (empty when it is valid); each is `line: message`.
    /// A document that is not well-formed yields its parse errors.
    package func violations(inXML xml: String) -> [String] {
        let collector = XMLErrorCollector()
        let box = Unmanaged.passUnretained(collector).toOpaque()
        return withExtendedLifetime(collector) { () -> [String] in
            let bytes = Array(xml.utf8)
            guard let parser = xmlNewParserCtxt() else { return ["0: libxml2 could not create a parser"] }
            defer { xmlFreeParserCtxt(parser) }
            let options = Int32(XML_PARSE_NONET.rawValue | XML_PARSE_NOERROR.rawValue | XML_PARSE_NOWARNING.rawValue)
            let doc = bytes.withUnsafeBufferPointer { buffer in
                buffer.withMemoryRebound(to: CChar.self) {
                    xmlCtxtReadMemory(parser, $0.baseAddress, Int32($0.count), "report.xml", "UTF-8", options)
                }
            }
            guard let doc else {
                let failure = XMLParseFailure(parser: parser)
                return ["\(failure.line): \(failure.message)"]
            }
            defer { xmlFreeDoc(doc) }
            guard let validator = xmlSchemaNewValidCtxt(schema) else {
                return ["0: libxml2 could not create a schema validator"]
            }
            defer { xmlSchemaFreeValidCtxt(validator) }
            xmlSchemaSetValidStructuredErrors(validator, XMLErrorCollector.callback, box)
            let result = xmlSchemaValidateDoc(validator, doc)
            if result != 0, collector.messages.isEmpty { return ["0: invalid (libxml2 code \(result))"] }
            return collector.messages
        }
    }

    /// Throws `.schemaViolations` (naming `source`) unless `xml` is valid.
    package func validate(xml: String, source: String) throws(ReportsError) {
        let found = violations(inXML: xml)
        if !found.isEmpty { throw .schemaViolations(path: source, violations: found) }
    }
}

/// Collects libxml2 structured errors as `line: message`; handed to C as an unretained pointer.
final class XMLErrorCollector {
    var messages: [String] = []
    var firstLine: Int?

    static let callback: xmlStructuredErrorFunc = { userData, error in
        guard let userData, let error else { return }
        let collector = Unmanaged<XMLErrorCollector>.fromOpaque(userData).takeUnretainedValue()
        let line = Int(error.pointee.line)
        let message = error.pointee.message.map { String(cString: $0) } ?? "unknown error"
        collector.messages.append("\(line): " + message.trimmedForMessage)
        if collector.firstLine == nil { collector.firstLine = line }
    }
}

/// The last error libxml2 recorded on a parser context: line and message.
