import Testing

@Test func placeholderTMDB() {}
