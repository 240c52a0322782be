import JSONRPC

/// Every method the server answers, in one explicit list.
public enum MethodList {
    public static let all: [any MovieMethod.Type] = [
        // Server and protocol
        ServerInfo.self,
        Initialize.self,
        Shutdown.self,
        // Catalog
        GenresList.self,
        MoviesPopular.self,
        MoviesByGenre.self,
        MoviesLatest.self,
        MoviesDetails.self,
        MoviesSearch.self,
        MoviesTrending.self,
        MoviesTopRated.self,
        MoviesNowPlaying.self,
        MoviesUpcoming.self,
        MoviesDiscover.self,
        MoviesCredits.self,
        MoviesVideos.self,
        MoviesWatchProviders.self,
        MoviesRecommendations.self,
        MoviesSimilar.self,
        MoviesFind.self,
        PeopleSearch.self,
        PeopleDetails.self,
        ImagesFetch.self,
        CatalogSync.self,
        // Accounts
        AuthValidate.self,
        AuthRegister.self,
        AuthLogin.self,
        AuthLogout.self,
        AuthStatus.self,
        AccountUpdate.self,
        AccountDelete.self,
        // Favorites
        FavoritesAdd.self,
        FavoritesRemove.self,
        FavoritesList.self,
        FavoritesContains.self,
        // Sync
        SyncStatus.self,
        SyncNow.self,
        // Events
        EventsList.self,
        EventsSearch.self,
        EventsGet.self,
        EventsAdd.self,
        EventsDelete.self,
        EventsStats.self,
        HintsList.self,
    ]

    /// Methods registered apart from the list because their result is served as raw JSON.
    static let rawMethods = ["rpc.discover"]

    /// MCP's methods: protocol plumbing answered by the same process, not part of the OpenRPC contract.
    public static let mcpMethods = ["ping", "server/discover", "tools/list", "tools/call"]

    /// Builds the method table for `server`.
    static func table(for server: ServerContext, contract: OpenRPCContract) -> MethodTable {
        var table = MethodTable(allowedParams: contract.paramNames(excluding: all.filter { $0.acceptsAnyParams }
            .map { $0.name }))
        for method in all {
            table.register(method, context: server)
        }
        table.registerRaw("rpc.discover") { input, _ in
            _ = try ParamsDecoding.decode(NoParams.self, from: input)
            return contract.minifiedDocument  // one copy, shared by every reply
        }
        table.onNotification("exit") { _ in server.exitRequested() }
        table.onNotification("initialized") { _ in }
        // MCP: protocol plumbing over the same handlers, outside the OpenRPC method list.
        registerMCP(in: &table, server: server, contract: contract)
        table.onNotification("notifications/initialized") { _ in }
        return table
    }
}
