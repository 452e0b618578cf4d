import HTTPClient
import ScenarioChecks

extension SendResponse {
    /// The answer as the checks see it.
    init(_ response: APNsResponse) {
        self.init(
            status: response.status, reasonText: response.reasonText, timestamp: response.timestamp,
            headers: response.http.headers.map { ($0.name, $0.value) })
    }
}

extension FCMAnswer {
    /// FCM's answer as the checks see it.
    init(_ answer: FCMSendResponse) {
        self.init(
            status: answer.status, name: answer.name, errorStatus: answer.errorStatus,
            errorMessage: answer.errorMessage, errorCode: answer.errorCode, body: answer.http.bodyText)
    }
}
