--- Pure text formatting of server answers: list lines, headers and the details window.
local compat = require('movie_rpc.compat')

local M = {}

M.HEART = '♥'
M.CACHE_MARKER = '[cache]'
M.STALE_MARKER = '[stale]'
M.SYNC_MARKER = '⟳'

--- `text` made drawable as one buffer line: control characters (newline, NUL, escape, C1 controls…),
--- which nvim_buf_set_lines refuses or which would corrupt the screen, become spaces. The server passes
--- catalog text on as TMDB sent it, so every string drawn goes through this.
---@param text any
---@return string
function M.sanitize(text)
    if text == nil or text == vim.NIL then
        return ''
    end
    text = tostring(text)
    return (text:gsub('[%z\1-\31\127]', ' '):gsub('\194[\128-\159]', ' '))
end

local function display_width(text)
    return vim.fn.strdisplaywidth(text)
end

--- `text` cut or padded with spaces to exactly `width` display cells.
function M.fit(text, width)
    text = text or ''
    if display_width(text) > width then
        local chars = vim.fn.strchars(text)
        while chars > 0 and display_width(text) > width - 1 do
            chars = chars - 1
            text = vim.fn.strcharpart(text, 0, chars)
        end
        text = text .. '…'
    end
    return text .. string.rep(' ', width - display_width(text))
end

--- The year of a YYYY-MM-DD date, or '----' when unknown.
function M.year(date)
    date = compat.value(date)
    if type(date) == 'string' and date:match('^%d%d%d%d') then
        return date:sub(1, 4)
    end
    return '----'
end

function M.rating(value)
    value = compat.value(value)
    if type(value) == 'number' then
        return string.format('%.1f', value)
    end
    return ' -'
end

--- One list line: title, year, rating and the heart when a favorite.
function M.movie_line(movie, favorite, title_width, indent)
    local line = string.format('%s%s  %s  %4s', indent or '', M.fit(M.sanitize(movie.title), title_width or 44),
        M.year(movie.releaseDate), M.rating(movie.voteAverage))
    if favorite then
        line = line .. '  ' .. M.HEART
    end
    return line
end

--- The markers of an answer's provenance: "[cache]" when it came from the cache, "[stale]" when
--- older than its time to live.
function M.provenance(source, stale)
    local marks = {}
    if compat.value(source) == 'cache' then
        marks[#marks + 1] = M.CACHE_MARKER
    end
    if compat.value(stale) == true then
        marks[#marks + 1] = M.STALE_MARKER
    end
    return table.concat(marks, ' ')
end

--- The favorites buffer's marker of changes not yet pushed to the cloud, from a sync.status answer:
--- "⟳ 3 pending", with "(offline)" or "(sync error)" when sync cannot push them now; "" when nothing
--- is pending, sync is disabled or the answer is missing.
function M.sync_marker(status)
    if type(status) ~= 'table' or compat.value(status.enabled) ~= true then
        return ''
    end
    local pending = tonumber(compat.value(status.pending)) or 0
    if pending <= 0 then
        return ''
    end
    local text = string.format('%s %d pending', M.SYNC_MARKER, pending)
    local state = compat.value(status.state)
    if state == 'offline' then
        text = text .. ' (offline)'
    elseif state == 'error' then
        text = text .. ' (sync error)'
    end
    return text
end

--- Header of a page of movies: "Popular movies · page 2/9 · 170 movies [cache] [stale]".
function M.page_header(title, page)
    local text = string.format('%s · page %d/%d · %d movies', title, page.page or 1, page.totalPages or 1,
        page.totalResults or 0)
    local marks = M.provenance(page.source, page.stale)
    if marks ~= '' then
        text = text .. '  ' .. marks
    end
    return text
end

--- `text` broken into lines of at most `width` cells at spaces.
function M.wrap(text, width)
    local lines = {}
    for paragraph in ((text or ''):gsub('[%z\1-\9\11-\31\127]', ' ') .. '\n'):gmatch('(.-)\n') do
        local line = ''
        for word in paragraph:gmatch('%S+') do
            if line == '' then
                line = word
            elseif display_width(line) + 1 + display_width(word) <= width then
                line = line .. ' ' .. word
            else
                lines[#lines + 1] = line
                line = word
            end
        end
        lines[#lines + 1] = line
    end
    while #lines > 0 and lines[#lines] == '' do
        lines[#lines] = nil
    end
    return lines
end

--- Lines of the details window for movies.details (or movies.latest) `d`.
--- `genre_names` maps genre ids to names for answers that carry only genreIds.
function M.details_lines(d, opts)
    opts = opts or {}
    local width = opts.width or 72
    local lines = {}
    local title = string.format('%s (%s)', M.sanitize(d.title or '?'), M.year(d.releaseDate))
    if opts.favorite then
        title = title .. '  ' .. M.HEART
    end
    lines[#lines + 1] = title
    local original = compat.value(d.originalTitle)
    if original and original ~= '' and original ~= d.title then
        lines[#lines + 1] = 'Original title: ' .. original
    end
    local facts = { 'Rating ' .. vim.trim(M.rating(d.voteAverage)) .. '/10' }
    if type(compat.value(d.voteCount)) == 'number' then
        facts[#facts + 1] = string.format('%d votes', d.voteCount)
    end
    if type(compat.value(d.runtime)) == 'number' and d.runtime > 0 then
        facts[#facts + 1] = string.format('%d min', d.runtime)
    end
    lines[#lines + 1] = table.concat(facts, ' · ')

    local names = {}
    if type(compat.value(d.genres)) == 'table' then
        for _, g in ipairs(d.genres) do
            names[#names + 1] = g.name
        end
    elseif type(compat.value(d.genreIds)) == 'table' then
        for _, id in ipairs(d.genreIds) do
            names[#names + 1] = (opts.genre_names or {})[id] or tostring(id)
        end
    end
    lines[#lines + 1] = 'Genres: ' .. (#names > 0 and table.concat(names, ', ') or '-')

    local release = compat.value(d.releaseDate)
    local status = compat.value(d.status)
    if (release and release ~= '') or (status and status ~= '') then
        local parts = {}
        if release and release ~= '' then
            parts[#parts + 1] = 'Released ' .. release
        end
        if status and status ~= '' then
            parts[#parts + 1] = 'Status: ' .. status
        end
        lines[#lines + 1] = table.concat(parts, ' · ')
    end
    local tagline = compat.value(d.tagline)
    if tagline and tagline ~= '' then
        lines[#lines + 1] = '“' .. tagline .. '”'
    end
    local marks = M.provenance(d.source, d.stale)
    if marks ~= '' then
        lines[#lines + 1] = marks
    end
    vim.list_extend(lines, M.extras_lines(d, opts.region, width))
    lines[#lines + 1] = ''
    local overview = compat.value(d.overview)
    if overview and overview ~= '' then
        vim.list_extend(lines, M.wrap(overview, width))
    else
        lines[#lines + 1] = '(no overview)'
    end
    return lines
end

local function list_of(value)
    value = compat.value(value)
    return type(value) == 'table' and value or {}
end

--- "Name (Character), Name, …" of the `limit` top-billed cast members, or nil.
function M.cast_text(credits, limit)
    local cast = vim.deepcopy(list_of(compat.value(credits) and credits.cast))
    table.sort(cast, function(a, b)
        return (tonumber(compat.value(a.order)) or math.huge) < (tonumber(compat.value(b.order)) or math.huge)
    end)
    local parts = {}
    for i = 1, math.min(limit or 5, #cast) do
        local member = cast[i]
        local name, character = compat.value(member.name), compat.value(member.character)
        if type(name) == 'string' and name ~= '' then
            parts[#parts + 1] = (type(character) == 'string' and character ~= '')
                and string.format('%s (%s)', name, character) or name
        end
    end
    return #parts > 0 and table.concat(parts, ', ') or nil
end

--- The directors' names from a credits crew, or nil.
function M.directors_text(credits)
    local names = {}
    for _, member in ipairs(list_of(compat.value(credits) and credits.crew)) do
        local name = compat.value(member.name)
        if compat.value(member.job) == 'Director' and type(name) == 'string' and name ~= '' then
            names[#names + 1] = name
        end
    end
    return #names > 0 and table.concat(names, ', ') or nil
end

--- The URL of the first trailer (the server lists trailers first) that has one, or nil.
function M.trailer_url(videos)
    local fallback = nil
    for _, video in ipairs(list_of(videos)) do
        local url = compat.value(video.url)
        if type(url) == 'string' and url ~= '' then
            if compat.value(video.type) == 'Trailer' then
                return url
            end
            fallback = fallback or (compat.value(video.type) == 'Teaser' and url or nil)
        end
    end
    return fallback
end

--- The providers of `region` from a watchProviders answer: one region's {flatrate, rent, buy, free,
--- ads, link}, or all of them keyed by region (directly or under `results`/`regions`).
local function region_providers(providers, region)
    providers = compat.value(providers)
    if type(providers) ~= 'table' then
        return nil
    end
    for _, key in ipairs({ 'flatrate', 'rent', 'buy', 'free', 'ads' }) do
        if providers[key] ~= nil then
            local own = compat.value(providers.region)
            return (own == nil or region == nil or own == region) and providers or nil
        end
    end
    if not region then
        return nil
    end
    for _, nested in ipairs({ providers, compat.value(providers.results), compat.value(providers.regions) }) do
        if type(nested) == 'table' and type(compat.value(nested[region])) == 'table' then
            return nested[region]
        end
    end
    return nil
end

--- "Stream: A, B · Rent: C · Buy: D" for `region`, or nil when it has none.
function M.providers_text(providers, region)
    local found = region_providers(providers, region)
    if not found then
        return nil
    end
    local parts = {}
    for _, kind in ipairs({ { 'flatrate', 'Stream' }, { 'free', 'Free' }, { 'ads', 'With ads' },
        { 'rent', 'Rent' }, { 'buy', 'Buy' } }) do
        local names = {}
        for _, provider in ipairs(list_of(found[kind[1]])) do
            local name = compat.value(provider.name)
            if type(name) == 'string' and name ~= '' then
                names[#names + 1] = name
            end
        end
        if #names > 0 then
            parts[#parts + 1] = kind[2] .. ': ' .. table.concat(names, ', ')
        end
    end
    return #parts > 0 and table.concat(parts, ' · ') or nil
end

--- The lines movies.details with `include` adds, each only when the answer has it: certification,
--- director, top-billed cast, trailer URL and the watch providers of `region`.
function M.extras_lines(d, region, width)
    local lines = {}
    local certification = compat.value(d.certification)
    if type(certification) == 'string' and certification ~= '' then
        lines[#lines + 1] = 'Rated ' .. certification .. (region and (' (' .. region .. ')') or '')
    end
    local directors = M.directors_text(d.credits)
    if directors then
        vim.list_extend(lines, M.wrap('Director: ' .. directors, width or 72))
    end
    local cast = M.cast_text(d.credits, 5)
    if cast then
        vim.list_extend(lines, M.wrap('Cast: ' .. cast, width or 72))
    end
    local trailer = M.trailer_url(d.videos)
    if trailer then
        lines[#lines + 1] = 'Trailer: ' .. trailer
    end
    local providers = M.providers_text(d.watchProviders, region)
    if providers then
        vim.list_extend(lines, M.wrap(string.format('Watch (%s): %s', region or '?', providers), width or 72))
    end
    return lines
end

local function scalar_text(value)
    if type(value) == 'string' then
        return value
    end
    if value == vim.NIL then
        return 'null'
    end
    if type(value) == 'table' then
        return vim.fn.json_encode(value)
    end
    return tostring(value)
end

--- "key=value key=value" of an event's params, keys sorted.
function M.event_params(params)
    params = compat.value(params)
    if type(params) ~= 'table' then
        return ''
    end
    local keys = vim.tbl_keys(params)
    table.sort(keys)
    local parts = {}
    for _, k in ipairs(keys) do
        parts[#parts + 1] = k .. '=' .. scalar_text(params[k])
    end
    return table.concat(parts, ' ')
end

--- The event's name, with how many times it happened in a row when that is more than once.
local function event_name(event)
    local repeats = tonumber(compat.value(event.repeats)) or 1
    if repeats > 1 then
        return (event.name or '?') .. ' ×' .. tostring(math.floor(repeats))
    end
    return event.name or '?'
end

--- One line of the events list: time, name, params.
function M.event_line(event)
    local when = (event.timestamp or ''):gsub('T', ' '):gsub('Z$', '')
    local line = string.format('%-23s  %-20s  %s', when, event_name(event), M.event_params(event.params))
    return (line:gsub('%s+$', ''))
end

--- Lines of the window showing one event.
function M.event_lines(event)
    local lines = {
        event_name(event),
        'Time: ' .. tostring(event.timestamp),
    }
    if (tonumber(compat.value(event.repeats)) or 1) > 1 then
        lines[#lines + 1] = 'Last: ' .. tostring(compat.value(event.lastTimestamp))
    end
    lines[#lines + 1] = 'Id: ' .. tostring(event.id)
    lines[#lines + 1] = 'User: ' .. (compat.value(event.userId) or 'anonymous')
    lines[#lines + 1] = ''
    local params = compat.value(event.params)
    if type(params) == 'table' and next(params) ~= nil then
        lines[#lines + 1] = 'Params:'
        local keys = vim.tbl_keys(params)
        table.sort(keys)
        for _, k in ipairs(keys) do
            lines[#lines + 1] = string.format('  %s = %s', k, scalar_text(params[k]))
        end
    else
        lines[#lines + 1] = '(no params)'
    end
    return lines
end

return M
