import Foundation
import XCTest

@testable import AuthCatSync

/// Parsing of ListObjectsV2 and error documents.
final class S3RepliesTests: XCTestCase {
    func testListPageWithContinuation() throws {
        let xml = """
            <?xml version="1.0" encoding="UTF-8"?>
            <ListBucketResult xmlns="http://s3.amazonaws.com/doc/2006-03-01/">
              <Name>bucket1</Name><Prefix>v/</Prefix><KeyCount>2</KeyCount><MaxKeys>2</MaxKeys>
              <IsTruncated>true</IsTruncated>
              <Contents><Key>v/devices/a/batch-000001</Key><LastModified>2024-01-01T00:00:00.000Z</LastModified>
                <ETag>&quot;abc&quot;</ETag><Size>120</Size><StorageClass>STANDARD</StorageClass></Contents>
              <Contents><Key>v/manifest&amp;x</Key><Size>7</Size></Contents>
              <NextContinuationToken>1ueGcxLPRx1Tr/XYExHnhbYLgveDs2J/wm36Hy4vbOwM=</NextContinuationToken>
            </ListBucketResult>
            """
        let page = try S3ListPage(Data(xml.utf8), deadline: nil)
        XCTAssertEqual(
            page.entries,
            [
                .init(key: "v/devices/a/batch-000001", size: 120, etag: "\"abc\""),
                .init(key: "v/manifest&x", size: 7),
            ])
        XCTAssertEqual(page.nextContinuationToken, "1ueGcxLPRx1Tr/XYExHnhbYLgveDs2J/wm36Hy4vbOwM=")
    }

    func testLastPageHasNoToken() throws {
        let xml = "<ListBucketResult><IsTruncated>false</IsTruncated><KeyCount>0</KeyCount></ListBucketResult>"
        let page = try S3ListPage(Data(xml.utf8), deadline: nil)
        XCTAssertEqual(page.entries, [])
        XCTAssertNil(page.nextContinuationToken)
    }

    func testNonListDocumentsAreRejected() {
        for xml in [
            "<Error><Code>NoSuchBucket</Code></Error>", "not xml",
            "<ListBucketResult><Contents><Key>a</Key><Size>x</Size></Contents></ListBucketResult>",
            "<ListBucketResult><Contents><Key>a</Key><Size>-1</Size></Contents></ListBucketResult>",
        ] {
            XCTAssertThrowsError(try S3ListPage(Data(xml.utf8), deadline: nil), xml)
        }
    }

    func testErrorReply() throws {
        let xml = """
            <?xml version="1.0" encoding="UTF-8"?>
            <Error><Code>PermanentRedirect</Code><Message>The bucket is elsewhere</Message><Region>eu-west-1</Region>
            <AWSAccessKeyId>AKIASHOULDNOTAPPEAR</AWSAccessKeyId></Error>
            """
        let reply = try XCTUnwrap(S3ErrorReply(Data(xml.utf8), deadline: nil))
        XCTAssertEqual(reply, S3ErrorReply(code: "PermanentRedirect", bucketRegion: "eu-west-1"))
        XCTAssertNil(S3ErrorReply(Data(), deadline: nil))
        XCTAssertEqual(
            S3ErrorReply(Data("<Error><Code>Bad Code&lt;script&gt;</Code></Error>".utf8), deadline: nil)?.code,
            "BadCodescript")
    }
}
