--- Pure text formatting of server answers: list lines, headers and the details window.
local compat = require('movie_rpc.compat')

local M = {}

M.HEART = '♥'
M.CACHE_MARKER = '[cache]'
M.STALE_MARKER = '[stale]'

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
    lines[#lines + 1] = ''
    local overview = compat.value(d.overview)
    if overview and overview ~= '' then
        vim.list_extend(lines, M.wrap(overview, width))
    else
        lines[#lines + 1] = '(no overview)'
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

--- One line of the events list: time, name, params.
function M.event_line(event)
    local when = (event.timestamp or ''):gsub('T', ' '):gsub('Z$', '')
    local line = string.format('%-23s  %-20s  %s', when, event.name or '?', M.event_params(event.params))
    return (line:gsub('%s+$', ''))
end

--- Lines of the window showing one event.
function M.event_lines(event)
    local lines = {
        event.name or '?',
        'Time: ' .. tostring(event.timestamp),
        'Id: ' .. tostring(event.id),
        'User: ' .. (compat.value(event.userId) or 'anonymous'),
        '',
    }
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
