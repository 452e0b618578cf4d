import Foundation
import HTTPTypes
import PushModel

/// A provider's view of APNs' channel-management API for broadcast push (Apple:
/// `api-manage-broadcast.sandbox.push.apple.com:2195`, `api-manage-broadcast.push.apple.com:2196`), over the
/// same kind of connection as `APNsClient`: create, read, delete and list an app's channels.
package struct APNsChannelClient: Sendable {
    /// The connection (its `baseURL` is the channel-management listener).
    package let apns: APNsClient

    package init(_ apns: APNsClient) { self.apns = apns }

    /// `POST /1/apps/<bundleID>/channels` with `{"message-storage-policy": policy, "push-type": "LiveActivity"}`:
    /// 201 and the new id in `channelID` (`apns-channel-id`).
    package func create(bundleID: String, messageStoragePolicy policy: Int, requestID: String? = nil)
        async throws(APNsClientError) -> APNsResponse
    {
        let body: JSONValue = ["message-storage-policy": .number(Double(policy)), "push-type": "LiveActivity"]
        return try await apns.execute(
            "POST", try path(bundleID, "channels"), headers: headers(requestID: requestID),
            body: body.serializedBytes())
    }

    /// `GET /1/apps/<bundleID>/channels` with `apns-channel-id`: 200 and the channel's configuration as JSON.
    package func read(bundleID: String, channelID: String, requestID: String? = nil)
        async throws(APNsClientError) -> APNsResponse
    {
        try await apns.execute(
            "GET", try path(bundleID, "channels"), headers: headers(requestID: requestID, channelID: channelID),
            body: [])
    }

    /// `DELETE /1/apps/<bundleID>/channels` with `apns-channel-id`: 204.
    package func delete(bundleID: String, channelID: String, requestID: String? = nil)
        async throws(APNsClientError) -> APNsResponse
    {
        try await apns.execute(
            "DELETE", try path(bundleID, "channels"), headers: headers(requestID: requestID, channelID: channelID),
            body: [])
    }

    /// `GET /1/apps/<bundleID>/all-channels`: 200 and `{"channels": [...]}`.
    package func list(bundleID: String, requestID: String? = nil) async throws(APNsClientError) -> APNsResponse {
        try await apns.execute(
            "GET", try path(bundleID, "all-channels"), headers: headers(requestID: requestID), body: [])
    }

    private func path(_ bundleID: String, _ leaf: String) throws(APNsClientError) -> String {
        guard !bundleID.isEmpty, !bundleID.contains("/"), !bundleID.contains(" ") else {
            throw .invalidRequest("bundle ID '\(bundleID)' is empty or contains '/' or a space")
        }
        return "/1/apps/\(bundleID)/\(leaf)"
    }

    private func headers(requestID: String?, channelID: String? = nil) -> APNsRequestHeaders {
        var extra: [HTTPField] = []
        if let requestID { extra.append(HTTPField("apns-request-id", requestID)) }
        if let channelID { extra.append(HTTPField("apns-channel-id", channelID)) }
        return APNsRequestHeaders(extra: extra)
    }
}
