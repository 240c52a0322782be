import Foundation
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

extension FavoriteWire: JSONWritable {
    public func write(to writer: inout JSONWriter) {
        writer.object { writer in
            writer.member("movieId", movieId)
            writer.member("addedAt", addedAt)
            writer.key("movie")
            movie.write(to: &writer)
        }
    }
}

extension FavoritesContains.Result: JSONWritable {
    public func write(to writer: inout JSONWriter) {
        writer.object { writer in
            writer.key("contains")
            writer.object { writer in
                // Sorted like `ResultEncoding`'s sorted keys, so both encodings give the same bytes.
                for (id, isFavorite) in contains.sorted(by: { $0.key < $1.key }) { writer.member(id, isFavorite) }
            }
        }
    }
}

extension FavoritesList.Result: JSONWritable {
    public func write(to writer: inout JSONWriter) {
        switch self {
        case .favorites(let favorites):
            writer.object { writer in
                writer.key("favorites")
                writer.array(favorites) { writer, favorite in favorite.write(to: &writer) }
            }
        case .sections(let sections):
            writer.object { writer in
                writer.key("sections")
                writer.array(sections) { writer, section in
                    writer.object { writer in
                        writer.key("genre")
                        writer.object { writer in
                            writer.member("id", section.genre.id)
                            writer.member("name", section.genre.name)
                        }
                        writer.key("movies")
                        writer.array(section.movies) { writer, favorite in favorite.write(to: &writer) }
                    }
                }
            }
        case .written(let json):
            writer.value(json)
        }
    }

    public var writtenJSON: Data {
        if case .written(let json) = self { return json.data }  // served as kept: shared, not copied
        var writer = JSONWriter()
        write(to: &writer)
        return Data(writer.bytes)
    }
}
