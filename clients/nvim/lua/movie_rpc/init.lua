--- movie-rpc for Neovim: browse the movie-rpc catalog, keep favorites, read the activity log.
--- See :help movie-rpc. SPDX-License-Identifier: Apache-2.0
local client = require('movie_rpc.client')
local config = require('movie_rpc.config')

---@class movie_rpc.RpcError
---@field code integer The JSON-RPC error code (-32601 methodNotFound, -32034 unavailableInDemo, ...).
---@field message string The server's message.
---@field data? table `data.kind`, `data.field`, `data.fields`, ...

local M = {}

--- Configures the plugin. A running server is stopped so the next command starts it with the new
--- options.
---@param opts? movie_rpc.Options
function M.setup(opts)
    config.set(opts)
    if client.is_running() then
        client.stop()
        require('movie_rpc.session').reset()
    end
end

--- Opens the list of one genre's movies.
---@param genre {id: integer, name: string}
local function open_genre(genre)
    require('movie_rpc.list').open_movies({
        name = 'movie-rpc://genre/' .. genre.id,
        title = genre.name .. ' movies',
        method = 'movies.byGenre',
        params = { genreId = genre.id },
    })
end

--- :Movie genres: pick a genre with vim.ui.select, then list its movies.
function M.genres()
    local list = require('movie_rpc.list')
    local format = require('movie_rpc.format')
    client.request('genres.list', nil, function(err, result)
        if err then
            return client.notify_error(err)
        end
        for _, g in ipairs(result.genres) do
            list.genre_names[g.id] = g.name
        end
        local marks = format.provenance(result.source, result.stale)
        local prompt = 'Genre' .. (marks ~= '' and (' ' .. marks) or '') .. ': '
        vim.ui.select(result.genres, {
            prompt = prompt,
            kind = 'movie_rpc_genre',
            format_item = function(g)
                return g.name
            end,
        }, function(choice)
            if not choice then
                return
            end
            open_genre(choice)
        end)
    end)
end

--- The genres, fetched once per server process (for :Movie genre and its completion).
---@param callback fun(genres: {id: integer, name: string}[]|nil, err: movie_rpc.RpcError|nil)
local function with_genres(callback)
    local list = require('movie_rpc.list')
    client.request('genres.list', nil, function(err, result)
        if err then
            return callback(nil, err)
        end
        for _, g in ipairs(result.genres) do
            list.genre_names[g.id] = g.name
        end
        callback(result.genres, nil)
    end)
end

--- :Movie genre {name}: the movies of the genre called `name` (case-insensitive) or with that id.
---@param name string
function M.genre(name)
    name = vim.trim(name or '')
    if name == '' then
        return M.genres()
    end
    with_genres(function(genres, err)
        if err then
            return client.notify_error(err)
        end
        for _, g in ipairs(genres) do
            if g.name:lower() == name:lower() or tostring(g.id) == name then
                return open_genre(g)
            end
        end
        vim.notify(string.format('movie-rpc: no genre called "%s" (:Movie genre <Tab> lists them)', name),
            vim.log.levels.ERROR)
    end)
end

--- :Movie search {query} (alias :MovieSearch): movies.search results in a list buffer, 20 a page.
---@param query string
function M.search(query)
    query = vim.trim(query or '')
    if query == '' then
        vim.notify('movie-rpc: :Movie search needs a query', vim.log.levels.ERROR)
        return
    end
    local cfg = config.get()
    require('movie_rpc.list').open_movies({
        name = 'movie-rpc://search/' .. query,
        title = string.format('Search "%s"', query),
        method = 'movies.search',
        params = { query = query, language = cfg.language, region = cfg.region },
    })
end

--- :Movie popular [page] (alias :MoviePopular)
---@param page? integer
function M.popular(page)
    require('movie_rpc.list').open_movies({
        name = 'movie-rpc://popular',
        title = 'Popular movies',
        method = 'movies.popular',
        page = page,
    })
end

--- :Movie latest: the newest TMDB record in a floating window.
function M.latest()
    require('movie_rpc.list').show_latest()
end

--- :Movie details {id}: the movie in a floating window (with cast, director, trailer and the
--- configured region's providers when the catalog has them).
---@param movie_id integer|string
function M.details(movie_id)
    local id = tonumber(movie_id)
    if not id or id < 1 or id ~= math.floor(id) then
        vim.notify('movie-rpc: :MovieDetails needs a movie id (a positive integer)', vim.log.levels.ERROR)
        return
    end
    require('movie_rpc.list').show_details(id)
end

--- :Movie favorites: the logged-in user's favorites grouped by genre.
function M.favorites()
    require('movie_rpc.list').open_favorites()
end

function M.login()
    require('movie_rpc.session').login()
end

function M.register()
    require('movie_rpc.session').register()
end

function M.logout()
    require('movie_rpc.session').logout()
end

--- :Movie sync [pages] [all]: catalog.sync with a progress token; each $/progress is shown as it
--- arrives. A number sets popularPages; "all" also syncs every genre's first page.
---@param args? string[]
function M.sync(args)
    local params = {}
    for _, arg in ipairs(args or {}) do
        if arg == 'all' then
            params.genres = 'all'
        elseif tonumber(arg) then
            params.popularPages = tonumber(arg)
        else
            vim.notify('movie-rpc: :MovieSync [pages] [all]: unknown argument ' .. arg, vim.log.levels.ERROR)
            return
        end
    end
    local token
    token = client.progress_token(function(value)
        if type(value) ~= 'table' then
            return
        end
        local text = string.format('movie-rpc: sync %s/%s', tostring(value.done or '?'), tostring(value.total or '?'))
        if type(value.message) == 'string' and value.message ~= '' then
            text = text .. ' ' .. value.message
        end
        vim.notify(text, vim.log.levels.INFO)
    end)
    params.progressToken = token
    vim.notify('movie-rpc: syncing the catalog…', vim.log.levels.INFO)
    client.request('catalog.sync', params, function(err, report)
        client.release_token(token)
        if err then
            return client.notify_error(err)
        end
        vim.notify(string.format('movie-rpc: sync done: %d of %d items, %d genres, %d pages, %d movies (%s)',
            report.succeeded, report.total, report.genres, report.pages, report.movies, tostring(report.source)),
            vim.log.levels.INFO)
        if report.failed > 0 then
            local first = report.failures[1]
            vim.notify(string.format('movie-rpc: %d sync items failed, first: %s: %s', report.failed,
                tostring(first and first.item), tostring(first and first.message)), vim.log.levels.WARN)
        end
    end)
end

--- :Movie events [query]: the activity log, newest first (events.search when a query is given).
---@param query? string
function M.events(query)
    require('movie_rpc.list').open_events(query)
end

--- Sends a request; `callback(err, result)` runs on the main loop.
---@param method string
---@param params? table
---@param callback fun(err: movie_rpc.RpcError|nil, result: any)
function M.request(method, params, callback)
    client.request(method, params, callback)
end

--- Sends a request and waits for its answer (vim.wait). Returns result, err.
---@param method string
---@param params? table
---@param timeout? integer milliseconds
---@return any result
---@return movie_rpc.RpcError|nil err
function M.request_sync(method, params, timeout)
    return client.request_sync(method, params, timeout)
end

--- Waits until every request sent (and those their callbacks sent) has been handled.
---@param timeout? integer milliseconds
---@return boolean idle
function M.wait(timeout)
    return client.wait_idle(timeout)
end

--- Stops the server process.
function M.stop()
    client.stop()
    require('movie_rpc.session').reset()
end

--- The subcommands of :Movie, in the order :Movie <Tab> offers them.
---@type string[]
M.SUBCOMMANDS = { 'popular', 'genres', 'genre', 'search', 'latest', 'details', 'favorites', 'login',
    'register', 'logout', 'sync', 'events' }

local subcommands = {
    popular = function(args)
        local page = args[1] and tonumber(args[1])
        if args[1] and not page then
            return vim.notify('movie-rpc: :Movie popular [page]: the page is a number', vim.log.levels.ERROR)
        end
        M.popular(page)
    end,
    genres = function() M.genres() end,
    genre = function(args) M.genre(table.concat(args, ' ')) end,
    search = function(args) M.search(table.concat(args, ' ')) end,
    latest = function() M.latest() end,
    details = function(args) M.details(args[1]) end,
    favorites = function() M.favorites() end,
    login = function() M.login() end,
    register = function() M.register() end,
    logout = function() M.logout() end,
    sync = function(args) M.sync(args) end,
    events = function(args) M.events(table.concat(args, ' ')) end,
}

--- Runs `:Movie {subcommand} [args]`.
---@param fargs string[] the command's words (`opts.fargs` of the user command)
function M.command(fargs)
    -- Neovim 0.7 gives {''} for an empty optional argument.
    fargs = vim.tbl_filter(function(word) return word ~= '' end, fargs or {})
    local name = fargs[1]
    local run = name and subcommands[name]
    if not run then
        vim.notify(string.format('movie-rpc: :Movie %s: unknown subcommand; one of: %s', tostring(name or ''),
            table.concat(M.SUBCOMMANDS, ', ')), vim.log.levels.ERROR)
        return
    end
    run(vim.list_slice(fargs, 2))
end

--- Completion of :Movie: subcommands, then genre names after `genre`, `all` after `sync`.
---@param arglead string the word being completed
---@param cmdline string the whole command line
---@return string[]
function M.complete(arglead, cmdline)
    local words = vim.split(cmdline, '%s+', { trimempty = false })
    table.remove(words, 1) -- the command itself
    local function starting_with(candidates, prefix)
        local found = {}
        for _, candidate in ipairs(candidates) do
            if candidate:lower():sub(1, #prefix) == prefix:lower() then
                found[#found + 1] = candidate
            end
        end
        return found
    end
    if #words <= 1 then
        return starting_with(M.SUBCOMMANDS, arglead)
    end
    if words[1] == 'sync' then
        return starting_with({ 'all' }, arglead)
    end
    if words[1] ~= 'genre' then
        return {}
    end
    -- Genre names have spaces ("Science Fiction"): match what follows `genre `, offer the rest of
    -- each name from the word being completed on.
    local typed = cmdline:match('^%s*%S+%s+genre%s+(.*)$') or ''
    local list = require('movie_rpc.list')
    if next(list.genre_names) == nil then
        local result = client.request_sync('genres.list', nil, 3000)
        for _, g in ipairs(result and result.genres or {}) do
            list.genre_names[g.id] = g.name
        end
    end
    local names = vim.tbl_values(list.genre_names)
    table.sort(names)
    local found = {}
    for _, name in ipairs(starting_with(names, typed)) do
        found[#found + 1] = name:sub(#typed - #arglead + 1)
    end
    return found
end

return M
