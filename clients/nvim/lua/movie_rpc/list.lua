--- Scratch buffers listing movies (a page at a time), favorites grouped by genre, and events.
--- One view per buffer; buffer-local keys: <CR> details, f favorite, ]p / [p pages, q close.
local client = require('movie_rpc.client')
local compat = require('movie_rpc.compat')
local config = require('movie_rpc.config')
local float = require('movie_rpc.float')
local format = require('movie_rpc.format')
local session = require('movie_rpc.session')

local M = {}

local LOGIN_REQUIRED = -32011
local ALREADY_FAVORITE = -32020
local NOT_FOUND = -32021
local METHOD_NOT_FOUND = -32601
local INVALID_PARAMS = -32602
local UNAVAILABLE_IN_DEMO = -32034

--- What the details window asks movies.details to add (each shown only when the answer has it).
M.DETAILS_INCLUDE = { 'credits', 'videos', 'watchProviders', 'releaseDates' }

-- The server generation that refused `include` (an older server: -32601/-32602; the demo catalog:
-- -32034), so the details of that process are asked for without it from then on.
local include_refused_by = nil

local HEADER_LINES = 2
--- While changes are pending, the favorites buffer asks sync.status again this often (milliseconds).
M.SYNC_POLL_MS = 2000
local ns = vim.api.nvim_create_namespace('movie_rpc')

local function define_highlights()
    vim.cmd('highlight default link MovieRpcHeart ErrorMsg')
    vim.cmd('highlight default link MovieRpcMarker WarningMsg')
    vim.cmd('highlight default link MovieRpcSection Statement')
end
define_highlights()
vim.api.nvim_create_autocmd('ColorScheme', {
    group = vim.api.nvim_create_augroup('movie_rpc_highlights', { clear = true }),
    callback = define_highlights,
})

--- bufnr -> view. A view: {buf, name, kind = 'movies'|'favorites'|'events', title, rows = {lnum -> item},
--- favs = {movieId -> true}, ...}; kind-specific fields below.
local views = {}

--- Genre id -> name, learnt from genres.list, for answers that carry only genreIds.
M.genre_names = {}

--- The view shown in buffer `buf` (default: the current one), or nil.
function M.view(buf)
    return views[buf or vim.api.nvim_get_current_buf()]
end

--- Every live view.
function M.views()
    local list = {}
    for buf, view in pairs(views) do
        if vim.api.nvim_buf_is_valid(buf) then
            list[#list + 1] = view
        else
            views[buf] = nil
        end
    end
    return list
end

local function find_view(name)
    for _, view in ipairs(M.views()) do
        if view.name == name then
            return view
        end
    end
end

local function item_at_cursor(view)
    local lnum = vim.api.nvim_win_get_cursor(0)[1]
    return view.rows[lnum]
end

local function set_lines(view, lines, highlights)
    local buf = view.buf
    for index, line in ipairs(lines) do
        lines[index] = format.sanitize(line)
    end
    vim.api.nvim_buf_set_option(buf, 'modifiable', true)
    vim.api.nvim_buf_set_lines(buf, 0, -1, false, lines)
    vim.api.nvim_buf_set_option(buf, 'modifiable', false)
    vim.api.nvim_buf_set_option(buf, 'modified', false)
    vim.api.nvim_buf_clear_namespace(buf, ns, 0, -1)
    vim.api.nvim_buf_add_highlight(buf, ns, 'Title', 0, 0, -1)
    vim.api.nvim_buf_add_highlight(buf, ns, 'Comment', 1, 0, -1)
    for lnum, line in ipairs(lines) do
        for _, marker in ipairs({ format.CACHE_MARKER, format.STALE_MARKER, format.SYNC_MARKER }) do
            local s = lnum <= HEADER_LINES and line:find(marker, 1, true)
            if s then
                vim.api.nvim_buf_add_highlight(buf, ns, 'MovieRpcMarker', lnum - 1, s - 1, s - 1 + #marker)
            end
        end
        if view.rows[lnum] then
            local s = line:find(format.HEART, 1, true)
            if s then
                vim.api.nvim_buf_add_highlight(buf, ns, 'MovieRpcHeart', lnum - 1, s - 1, s - 1 + #format.HEART)
            end
        end
    end
    for _, hl in ipairs(highlights or {}) do
        vim.api.nvim_buf_add_highlight(buf, ns, hl[2], hl[1] - 1, 0, -1)
    end
end

--- Redraws a view's buffer from its data.
function M.render(view)
    if not (view.buf and vim.api.nvim_buf_is_valid(view.buf)) then
        return
    end
    local width = config.get().title_width
    local lines, highlights = {}, {}
    view.rows = {}
    if view.kind == 'movies' then
        lines[1] = format.page_header(view.title, view.page)
        lines[2] = '<CR> details  f favorite  ]p next page  [p previous page  q close'
        for _, movie in ipairs(view.movies) do
            lines[#lines + 1] = format.movie_line(movie, view.favs[movie.id], width)
            view.rows[#lines] = movie
        end
        if #view.movies == 0 then
            lines[#lines + 1] = '  (no movies)'
        end
    elseif view.kind == 'favorites' then
        if view.logged_out then
            lines[1] = 'Favorites · not logged in'
            lines[2] = ':MovieLogin to see your favorites'
        else
            lines[1] = string.format('Favorites · %d in %d genres (grouped by genre)', view.total, #view.sections)
            if view.sync_marker and view.sync_marker ~= '' then
                lines[1] = lines[1] .. '  ' .. view.sync_marker
            end
            lines[2] = '<CR> details  f favorite  q close'
            for _, section in ipairs(view.sections) do
                lines[#lines + 1] = string.format('%s (%d)', section.genre.name, #section.movies)
                highlights[#highlights + 1] = { #lines, 'MovieRpcSection' }
                for _, fav in ipairs(section.movies) do
                    local movie = fav.movie
                    lines[#lines + 1] = format.movie_line(movie, view.favs[movie.id], width, '  ')
                    view.rows[#lines] = movie
                end
            end
            if #view.sections == 0 then
                lines[#lines + 1] = '  (no favorites yet: f on a movie adds one)'
            end
        end
    elseif view.kind == 'events' then
        lines[1] = string.format('%s · page %d%s', view.title, view.page, view.next_cursor and '' or ' (last)')
        lines[2] = '<CR> details  ]p older  [p newer  q close'
        for _, event in ipairs(view.events) do
            lines[#lines + 1] = format.event_line(event)
            view.rows[#lines] = event
        end
        if #view.events == 0 then
            lines[#lines + 1] = '  (no events)'
        end
    end
    set_lines(view, lines, highlights)
    if view.move_cursor then
        view.move_cursor = false
        for _, win in ipairs(vim.fn.win_findbuf(view.buf)) do
            vim.api.nvim_win_set_cursor(win, { math.min(HEADER_LINES + 1, #lines), 0 })
        end
    end
end

local function notify_info(message)
    vim.notify('movie-rpc: ' .. message, vim.log.levels.INFO)
end

--- Calls `callback(favs)` with {movieId -> true} for `movies`: one favorites.contains call when
--- logged in, nothing otherwise.
local function hearts_for(movies, callback)
    session.ensure(function(user)
        if not user or #movies == 0 then
            return callback({})
        end
        local ids = {}
        for _, movie in ipairs(movies) do
            ids[#ids + 1] = movie.id
        end
        client.request('favorites.contains', { movieIds = ids }, function(err, result)
            local favs = {}
            if err then
                if err.code == LOGIN_REQUIRED then
                    session.forget_user()
                elseif err.code ~= METHOD_NOT_FOUND then
                    client.notify_error(err)
                end
                return callback(favs)
            end
            for key, value in pairs(compat.value(result.contains) or {}) do
                if value == true then
                    favs[tonumber(key)] = true
                end
            end
            callback(favs)
        end)
    end)
end

--- Asks sync.status for the favorites view's pending marker and redraws the header when it changed;
--- asks again every SYNC_POLL_MS while changes are pending and the buffer is open. Asynchronous, one
--- request at a time (asked meanwhile, it asks once more after the answer, which may predate the
--- change); a server without sync.status (or any error) shows no marker.
local function refresh_sync_marker(view)
    if not (view.buf and vim.api.nvim_buf_is_valid(view.buf)) then
        return
    end
    if view.sync_asking then
        view.sync_again = true
        return
    end
    view.sync_asking = true
    client.request('sync.status', nil, function(err, status)
        view.sync_asking = false
        local marker = err and '' or format.sync_marker(status)
        if marker ~= (view.sync_marker or '') then
            view.sync_marker = marker
            M.render(view)
        end
        if view.sync_again then
            view.sync_again = false
            return refresh_sync_marker(view)
        end
        if marker ~= '' and not view.sync_polling then
            view.sync_polling = true
            vim.defer_fn(function()
                view.sync_polling = false
                if view.buf and vim.api.nvim_buf_is_valid(view.buf) and views[view.buf] == view then
                    refresh_sync_marker(view)
                end
            end, M.SYNC_POLL_MS)
        end
    end)
end

--- The open favorites views' markers, after a change to the favorites.
local function refresh_sync_markers()
    for _, view in ipairs(M.views()) do
        if view.kind == 'favorites' and not view.logged_out then
            refresh_sync_marker(view)
        end
    end
end

--- Sets whether `movie_id` is a favorite in every open view, and redraws those showing it.
local function set_favorite(movie_id, is_favorite)
    for _, view in ipairs(M.views()) do
        local shown = false
        for _, item in pairs(view.rows) do
            if view.kind ~= 'events' and item.id == movie_id then
                shown = true
            end
        end
        if shown then
            view.favs[movie_id] = is_favorite or nil
            M.render(view)
        end
    end
end

local function toggle_favorite(view)
    if view.kind == 'events' then
        return
    end
    local movie = item_at_cursor(view)
    if not movie then
        return
    end
    local was = view.favs[movie.id] == true
    local method = was and 'favorites.remove' or 'favorites.add'
    client.request(method, { movieId = movie.id }, function(err)
        if err then
            if not was and err.code == ALREADY_FAVORITE then
                return set_favorite(movie.id, true)
            elseif was and err.code == NOT_FOUND then
                return set_favorite(movie.id, false)
            end
            if err.code == LOGIN_REQUIRED then
                session.forget_user()
            end
            return client.notify_error(err)
        end
        set_favorite(movie.id, not was)
        refresh_sync_markers()
    end)
end

--- Whether an error answer to movies.details with `include` means "not this server or catalog"
--- rather than a real failure: the method or param is unknown (an older server), or the demo
--- catalog has no credits, videos or providers.
local function include_refused(err)
    if err.code == METHOD_NOT_FOUND or err.code == UNAVAILABLE_IN_DEMO then
        return true
    end
    local data = compat.value(err.data)
    local field = type(data) == 'table' and compat.value(data.field) or nil
    return err.code == INVALID_PARAMS and type(field) == 'string'
        and (field:find('^include') ~= nil or field == 'region')
end

--- Shows movies.details of `movie_id` in a floating window, with the cast, director, trailer and
--- providers for the configured region when the server and catalog have them.
function M.show_details(movie_id, favorite)
    local cfg = config.get()
    local generation = client.generation()
    local plain = { movieId = movie_id, language = cfg.language }
    local full = vim.tbl_extend('force', plain, { include = M.DETAILS_INCLUDE, region = cfg.region })
    local function show(err, details)
        if err then
            return client.notify_error(err)
        end
        local width = math.min(72, math.max(20, vim.o.columns - 8))
        float.open(format.details_lines(details, { width = width, favorite = favorite, region = cfg.region }))
    end
    if include_refused_by == generation then
        return client.request('movies.details', plain, show)
    end
    client.request('movies.details', full, function(err, details)
        if err and include_refused(err) then
            include_refused_by = client.generation()
            return client.request('movies.details', plain, show)
        end
        show(err, details)
    end)
end

--- Shows movies.latest in a floating window.
function M.show_latest()
    client.request('movies.latest', nil, function(err, latest)
        if err then
            return client.notify_error(err)
        end
        local width = math.min(72, math.max(20, vim.o.columns - 8))
        local lines = format.details_lines(latest, { width = width, genre_names = M.genre_names })
        lines[1] = 'Latest: ' .. lines[1]
        float.open(lines)
    end)
end

local function open_item(view)
    local item = item_at_cursor(view)
    if not item then
        return
    end
    if view.kind == 'events' then
        float.open(format.event_lines(item), { filetype = 'movie_rpc_event' })
    else
        M.show_details(item.id, view.favs[item.id] == true)
    end
end

local load -- forward: load(view, page)

local function turn_page(view, delta)
    if view.kind == 'movies' then
        local target = view.page.page + delta
        if target < 1 then
            return notify_info('already on the first page')
        elseif target > math.max(1, view.page.totalPages) then
            return notify_info('already on the last page')
        end
        load(view, target)
    elseif view.kind == 'events' then
        if delta > 0 and not view.next_cursor then
            return notify_info('no older events')
        elseif delta < 0 and view.page <= 1 then
            return notify_info('already on the newest events')
        end
        load(view, view.page + delta)
    else
        notify_info('favorites fit on one page')
    end
end

local function create_buffer(view)
    local buf = vim.api.nvim_create_buf(false, true)
    vim.api.nvim_buf_set_option(buf, 'buftype', 'nofile')
    vim.api.nvim_buf_set_option(buf, 'bufhidden', 'wipe')
    vim.api.nvim_buf_set_option(buf, 'swapfile', false)
    vim.api.nvim_buf_set_option(buf, 'modifiable', false)
    pcall(vim.api.nvim_buf_set_name, buf, view.name)
    vim.api.nvim_buf_set_option(buf, 'filetype', 'movie_rpc')
    view.buf = buf
    views[buf] = view

    local function map(lhs, fn, desc)
        vim.keymap.set('n', lhs, function()
            local v = views[buf]
            if v then
                fn(v)
            end
        end, { buffer = buf, nowait = true, silent = true, desc = desc })
    end
    map('<CR>', open_item, 'movie-rpc: details')
    map('f', toggle_favorite, 'movie-rpc: toggle favorite')
    map(']p', function(v) turn_page(v, 1) end, 'movie-rpc: next page')
    map('[p', function(v) turn_page(v, -1) end, 'movie-rpc: previous page')
    map('q', function() vim.cmd('bwipeout ' .. buf) end, 'movie-rpc: close')
    if view.kind == 'favorites' then
        -- Back in the buffer (another window, a tab): the marker may be out of date.
        vim.api.nvim_create_autocmd('BufEnter', {
            buffer = buf,
            callback = function()
                local v = views[buf]
                if v and not v.logged_out then
                    refresh_sync_marker(v)
                end
            end,
        })
    end
    vim.api.nvim_create_autocmd('BufWipeout', {
        buffer = buf,
        once = true,
        callback = function()
            views[buf] = nil
        end,
    })
end

--- Puts the view's buffer in the current window (creating it the first time) and draws it.
local function show(view)
    if not (view.buf and vim.api.nvim_buf_is_valid(view.buf)) then
        create_buffer(view)
        view.move_cursor = true
    end
    if vim.api.nvim_get_current_buf() ~= view.buf then
        local open = float.current()
        if open and vim.api.nvim_get_current_win() == open.win then
            float.close()
        end
        vim.api.nvim_set_current_buf(view.buf)
    end
    M.render(view)
end

local function load_movies(view, page, first)
    local params = vim.tbl_extend('force', view.params or {}, { page = page })
    client.request(view.method, params, function(err, result)
        if err then
            if err.code == METHOD_NOT_FOUND then
                return vim.notify(string.format(
                    'movie-rpc: this server does not offer %s yet; a newer movie-rpc has it', view.method),
                    vim.log.levels.ERROR)
            end
            return client.notify_error(err)
        end
        hearts_for(result.results, function(favs)
            view.page = result
            view.movies = result.results
            view.favs = favs
            view.move_cursor = true
            if first then
                show(view)
            else
                M.render(view)
            end
        end)
    end)
end

local function load_favorites(view, first)
    client.request('favorites.list', { groupBy = 'genre' }, function(err, result)
        if err then
            if err.code == LOGIN_REQUIRED then
                session.forget_user()
            end
            return client.notify_error(err)
        end
        view.logged_out = false
        view.sections = compat.value(result.sections) or {}
        view.favs = {}
        local distinct = {}
        for _, section in ipairs(view.sections) do
            for _, fav in ipairs(section.movies) do
                view.favs[fav.movie.id] = true
                distinct[fav.movie.id] = true
            end
        end
        view.total = vim.tbl_count(distinct)
        view.move_cursor = true
        if first then
            show(view)
        else
            M.render(view)
        end
        refresh_sync_marker(view)
    end)
end

local function load_events(view, page, first)
    local params = vim.tbl_extend('force', view.params or {}, { cursor = view.cursors[page] })
    client.request(view.method, params, function(err, result)
        if err then
            return client.notify_error(err)
        end
        view.page = page
        view.events = result.events
        view.next_cursor = compat.value(result.nextCursor)
        view.cursors[page + 1] = view.next_cursor
        view.move_cursor = true
        if first then
            show(view)
        else
            M.render(view)
        end
    end)
end

load = function(view, page, first)
    if view.kind == 'movies' then
        load_movies(view, page, first)
    elseif view.kind == 'events' then
        load_events(view, page, first)
    else
        load_favorites(view, first)
    end
end

--- Opens (or reuses) the list named `spec.name` of `spec.method` pages and loads `spec.page`.
--- spec: {name, title, method, params, page}
function M.open_movies(spec)
    local view = find_view(spec.name) or {
        name = spec.name,
        kind = 'movies',
        title = spec.title,
        method = spec.method,
        params = spec.params,
        movies = {},
        favs = {},
        rows = {},
    }
    load(view, spec.page or 1, true)
end

--- Opens the favorites list grouped by genre.
function M.open_favorites()
    local view = find_view('movie-rpc://favorites') or {
        name = 'movie-rpc://favorites',
        kind = 'favorites',
        title = 'Favorites',
        sections = {},
        favs = {},
        rows = {},
        total = 0,
    }
    load(view, 1, true)
end

--- Opens the events list (events.search when `query` is given), 50 a page.
function M.open_events(query)
    local view = {
        name = 'movie-rpc://events',
        kind = 'events',
        title = 'Events',
        method = 'events.list',
        params = { limit = 50 },
        cursors = {},
        events = {},
        favs = {},
        rows = {},
        page = 1,
    }
    if query and query ~= '' then
        view.title = string.format('Events matching "%s"', query)
        view.method = 'events.search'
        view.params = { limit = 50, query = query }
    end
    local old = find_view(view.name)
    if old then
        view.buf = old.buf
        views[old.buf] = view
    end
    load(view, 1, true)
end

--- Redraws hearts after a login or logout: movie lists ask favorites.contains again; the
--- favorites list reloads (or says nobody is logged in).
function M.refresh_hearts()
    for _, view in ipairs(M.views()) do
        if view.kind == 'movies' then
            hearts_for(view.movies, function(favs)
                view.favs = favs
                M.render(view)
            end)
        elseif view.kind == 'favorites' then
            if session.logged_in() then
                load_favorites(view, false)
            else
                view.logged_out = true
                view.sections = {}
                view.favs = {}
                view.sync_marker = ''
                M.render(view)
            end
        end
    end
end

session.on_change(function()
    M.refresh_hearts()
end)

return M
