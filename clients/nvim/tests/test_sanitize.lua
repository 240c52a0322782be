-- Titles and overviews with newlines, NUL and other control characters (the server passes TMDB's text
-- on as it is) are drawn on one line each, with the characters replaced, in lists and the details float.
local H = dofile(vim.fn.fnamemodify(debug.getinfo(1, 'S').source:sub(2), ':p:h') .. '/helpers.lua')

H.run('hostile text is drawn, sanitised', function()
    H.setup()
    local notes = H.capture_notify()
    local client = require('movie_rpc.client')
    local real_request = client.request
    local hostile = {
        { id = 1, title = 'Two\nLines', releaseDate = '2001-01-01', voteAverage = 7.1, genreIds = {} },
        { id = 2, title = 'Nul\0Byte', releaseDate = '2002-02-02', voteAverage = 6.2, genreIds = {} },
        { id = 3, title = 'Esc\27[31mRed\r\tTab\127', releaseDate = '2003-03-03', voteAverage = 5.3, genreIds = {} },
    }
    client.request = function(method, params, callback)
        if method == 'movies.popular' then
            return vim.schedule(function()
                callback(nil, { page = 1, totalPages = 1, totalResults = 3, results = hostile, source = 'network',
                    fetchedAt = '2026-12-01T00:00:00.000Z', stale = false })
            end)
        elseif method == 'movies.details' then
            return vim.schedule(function()
                callback(nil, vim.tbl_extend('force', hostile[1], { overview = 'first\nsecond\0third',
                    tagline = 'a\nb', genres = { { id = 1, name = 'Dra\nma' } }, runtime = 90, status = 'Released',
                    source = 'network', stale = false }))
            end)
        end
        return real_request(method, params, callback)
    end

    vim.cmd('MoviePopular')
    local view = H.wait_view('movies', 'movie-rpc://popular')
    H.require(view ~= nil, 'the list with hostile titles is drawn', H.dump_notes(notes))
    local lines = H.lines()
    H.check(#lines == 2 + #hostile, 'one line per movie', #lines)
    for index, line in ipairs(lines) do
        H.check(not line:find('[%z\1-\31\127]'), 'line ' .. index .. ' has no control character', vim.inspect(line))
    end
    H.check(lines[3]:find('Two Lines', 1, true) ~= nil, 'a newline in a title becomes a space', lines[3])
    H.check(lines[4]:find('Nul Byte', 1, true) ~= nil, 'a NUL in a title becomes a space', lines[4])
    H.check(lines[5]:find('2003', 1, true) ~= nil, 'the year column is still in place', lines[5])

    vim.api.nvim_win_set_cursor(0, { 3, 0 })
    H.feed('<CR>')
    H.require(H.wait_for(function()
        return #H.floats() == 1 and client.pending() == 0
    end), 'the details float with hostile text opens', H.dump_notes(notes))
    local float_lines = H.lines(vim.api.nvim_win_get_buf(H.floats()[1]))
    for index, line in ipairs(float_lines) do
        H.check(not line:find('[%z\1-\31\127]'), 'float line ' .. index .. ' has no control character',
            vim.inspect(line))
    end
    H.check(H.contains_line(float_lines, 'Two Lines (2001)') ~= nil, 'the float title is on one line',
        vim.inspect(float_lines))
    -- A newline in the overview is a paragraph break; the NUL becomes a space.
    H.check(H.contains_line(float_lines, 'first') ~= nil and H.contains_line(float_lines, 'second third') ~= nil,
        'the overview keeps its words', vim.inspect(float_lines))
    client.request = real_request
end)
