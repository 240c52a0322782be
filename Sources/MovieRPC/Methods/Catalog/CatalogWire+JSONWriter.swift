import JSONRPC
import MovieCore

// The catalog's hot results write their own JSON (see `JSONWriter`); `CatalogWireTests` holds each to
// the same JSON as its `Encodable` form.

extension MovieSummaryWire: JSONWritable {
    public func write(to writer: inout JSONWriter) {
        writer.object { writer in writeMembers(to: &writer) }
    }

    /// The members alone, for results that add their own beside them (details).
    func writeMembers(to writer: inout JSONWriter) {
        writer.member("id", id)
        writer.member("title", title)
        writer.member("originalTitle", originalTitle)
        writer.member("overview", overview)
        writer.member("releaseDate", releaseDate)
        writer.member("genreIds", genreIds)
        writer.member("voteAverage", voteAverage)
        writer.member("voteCount", voteCount)
        writer.member("popularity", popularity)
        writer.member("adult", adult)
        writer.member("originalLanguage", originalLanguage)
        writer.member("posterPath", posterPath)
        writer.member("posterUrl", posterUrl)
        writer.member("backdropPath", backdropPath)
        writer.member("backdropUrl", backdropUrl)
    }
}

extension MoviePageResult: JSONWritable {
    public func write(to writer: inout JSONWriter) {
        writer.object { writer in
            writer.member("page", page)
            writer.member("totalPages", totalPages)
            writer.member("totalResults", totalResults)
            writer.key("results")
            writer.array(results) { writer, movie in movie.write(to: &writer) }
            writer.member("source", source)
            writer.member("fetchedAt", fetchedAt)
            writer.member("stale", stale)
        }
    }
}

extension GenresList.Result: JSONWritable {
    public func write(to writer: inout JSONWriter) {
        writer.object { writer in
            writer.key("genres")
            writer.array(genres) { writer, genre in
                writer.object { writer in
                    writer.member("id", genre.id)
                    writer.member("name", genre.name)
                }
            }
            writer.member("source", source)
            writer.member("fetchedAt", fetchedAt)
            writer.member("stale", stale)
        }
    }
}

extension MoviesDetails.Result: JSONWritable {
    public func write(to writer: inout JSONWriter) {
        writer.object { writer in
            movie.writeMembers(to: &writer)
            writer.member("tagline", tagline)
            writer.member("runtime", runtime)
            writer.member("status", status)
            writer.key("genres")
            writer.array(genres) { writer, genre in
                writer.object { writer in
                    writer.member("id", genre.id)
                    writer.member("name", genre.name)
                }
            }
            writer.member("homepage", homepage)
            writer.member("imdbId", imdbId)
            writer.member("budget", budget)
            writer.member("revenue", revenue)
            writer.member("spokenLanguages", spokenLanguages)
            writer.member("productionCompanies", productionCompanies)
            writer.member("source", source)
            writer.member("fetchedAt", fetchedAt)
            writer.member("stale", stale)
        }
    }
}
