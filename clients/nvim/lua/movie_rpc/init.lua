--- movie-rpc for Neovim: browse the movie-rpc catalog, keep favorites, read the activity log.
--- See :help movie-rpc.
local client = require('movie_rpc.client')
local config = require('movie_rpc.config')

local M = {}

--- Options: cmd (program or {program, args...}, default 'movie-rpc'), env (table of extra
--- environment variables), timeout (ms for synchronous helpers), title_width.
--- A running server is stopped so the next command starts it with the new options.
function M.setup(opts)
    config.set(opts)
    if client.is_running() then
        client.stop()
        require('movie_rpc.session').reset()
    end
end

--- :MovieGenres: pick a genre with vim.ui.select, then list its movies.
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
            list.open_movies({
                name = 'movie-rpc://genre/' .. choice.id,
                title = choice.name .. ' movies',
                method = 'movies.byGenre',
                params = { genreId = choice.id },
            })
        end)
    end)
end

--- :MoviePopular [page]
function M.popular(page)
    require('movie_rpc.list').open_movies({
        name = 'movie-rpc://popular',
        title = 'Popular movies',
        method = 'movies.popular',
        page = page,
    })
end

--- :MovieLatest: the newest TMDB record in a floating window.
function M.latest()
    require('movie_rpc.list').show_latest()
end

--- :MovieDetails {id}
function M.details(movie_id)
    local id = tonumber(movie_id)
    if not id or id < 1 or id ~= math.floor(id) then
        vim.notify('movie-rpc: :MovieDetails needs a movie id (a positive integer)', vim.log.levels.ERROR)
        return
    end
    require('movie_rpc.list').show_details(id)
end

--- :MovieFavorites: the logged-in user's favorites grouped by genre.
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

--- :MovieSync [pages] [all]: catalog.sync with a progress token; each $/progress is shown as it
--- arrives. A number sets popularPages; "all" also syncs every genre's first page.
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

--- :MovieEvents [query]: the activity log, newest first (events.search when a query is given).
function M.events(query)
    require('movie_rpc.list').open_events(query)
end

--- Sends a request; `callback(err, result)` runs on the main loop.
function M.request(method, params, callback)
    client.request(method, params, callback)
end

--- Sends a request and waits for its answer (vim.wait). Returns result, err.
function M.request_sync(method, params, timeout)
    return client.request_sync(method, params, timeout)
end

--- Waits until every request sent (and those their callbacks sent) has been handled.
function M.wait(timeout)
    return client.wait_idle(timeout)
end

--- Stops the server process.
function M.stop()
    client.stop()
    require('movie_rpc.session').reset()
end

return M
