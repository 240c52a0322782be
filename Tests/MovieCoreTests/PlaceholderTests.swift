import Testing

@Test func placeholderMovieCore() {}
