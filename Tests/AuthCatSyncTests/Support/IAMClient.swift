import AuthCatTestSupport
import Foundation

@testable import AuthCatSync

/// The few IAM query-API calls the moto test server needs, signed with throwaway keys.
struct IAMClient {
    let endpoint: String

    /// Creates `user`, allows it `s3:*`, and returns a new access key for it.
    func createUserWithS3Key(user: String) throws -> S3Credentials {
        let policy = #"{"Version":"2012-10-17","Statement":[{"Effect":"Allow","Action":"s3:*","Resource":"*"}]}"#
        _ = try call(["Action": "CreateUser", "UserName": user])
        _ = try call([
            "Action": "PutUserPolicy", "UserName": user, "PolicyName": "authcat-s3", "PolicyDocument": policy,
        ])
        let reply = try call(["Action": "CreateAccessKey", "UserName": user])
        guard let document = try? S3XMLDocument(reply, wanted: nil, deadline: nil),
            let keyId = document.leaves.first(where: { $0.path.hasSuffix("AccessKey/AccessKeyId") })?.text,
            let secret = document.leaves.first(where: { $0.path.hasSuffix("AccessKey/SecretAccessKey") })?.text
        else {
            throw MotoProcess.StartError("CreateAccessKey gave no key: \(String(decoding: reply, as: UTF8.self))")
        }
        return S3Credentials(accessKeyId: keyId, secretAccessKey: secret)
    }

    private func call(_ parameters: [String: String]) throws -> Data {
        // Any key will do: moto does not check these first, unauthenticated requests.
        let anyKey = S3Credentials(accessKeyId: "AKIAAUTHCATBOOTSTRAP", secretAccessKey: "bootstrap")
        let client = SignedHTTP(endpoint: endpoint, credentials: anyKey, service: "iam")
        let form = (parameters.merging(["Version": "2010-05-08"]) { $1 })
            .map {
                "\(SigV4Signer.encode($0.key, keepingSlashes: false))=\(SigV4Signer.encode($0.value, keepingSlashes: false))"
            }
            .sorted().joined(separator: "&")
        let (status, body) = try client.send(
            method: "POST", path: "/", contentType: "application/x-www-form-urlencoded", body: Data(form.utf8))
        guard status == 200 else {
            throw MotoProcess.StartError(
                "IAM \(parameters["Action"] ?? "") failed with HTTP \(status): \(String(decoding: body, as: UTF8.self))"
            )
        }
        return body
    }
}
