import Testing

@Test func placeholderSQLiteStore() {}
