import Foundation
import PushModel

extension DoctorInputLoader {
    /// `google-services.json`: a JSON object (its keys are checked by the diagnosis, so a partial file still says
    /// what it lacks).
    static func googleServices(_ path: String) -> DoctorFile<JSONValue> {
        parsed(
            path,
            expected: "the google-services.json downloaded from the Firebase console (Project settings ▸ Your apps)"
        ) {
            data in
            let json: JSONValue
            do { json = try JSONValue.parse([UInt8](data)) } catch { throw Unusable("not JSON (\(error))") }
            guard json.objectValue != nil else { throw Unusable("the JSON root is not an object") }
            return json
        }
    }

    /// A plain-XML `AndroidManifest.xml`; binary AXML is refused with the way to get a plain one.
    static func androidManifest(_ path: String) -> DoctorFile<AndroidManifestFile> {
        parsed(path, expected: "a plain-XML AndroidManifest.xml (source or merged)") { data in
            try AndroidManifestFile(bytes: [UInt8](data), source: path)
        }
    }
}
