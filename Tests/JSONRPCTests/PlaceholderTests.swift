import Testing
@Test func placeholderJSONRPC() {}
