import Testing

@Test func placeholderMovieRPC() {}
