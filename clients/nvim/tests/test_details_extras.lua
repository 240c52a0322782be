-- The details float shows the director, the top-billed cast, the trailer URL, the certification and
-- the configured region's providers, each only when the answer has it; when the server refuses
-- `include` (an older server: -32602/-32601; the demo catalog: -32034) it shows the plain details.
local H = dofile(vim.fn.fnamemodify(debug.getinfo(1, 'S').source:sub(2), ':p:h') .. '/helpers.lua')

H.run('details extras', function()
    H.setup({ region = 'US' })
    local notes = H.capture_notify()
    local client = require('movie_rpc.client')
    local real_request = client.request
    local asked = {}
    local answer_with = nil
    client.request = function(method, params, callback)
        if method == 'movies.details' and answer_with then
            asked[#asked + 1] = vim.deepcopy(params)
            return vim.schedule(function()
                callback(answer_with(params))
            end)
        end
        return real_request(method, params, callback)
    end
    local plain, err = require('movie_rpc').request_sync('movies.details', { movieId = 550 })
    H.require(plain ~= nil, 'movies.details 550 answers', err and err.message)

    local function cast(n)
        local list = {}
        for i = n, 1, -1 do -- out of order: the float sorts by billing order
            list[#list + 1] = { personId = i, name = 'Actor ' .. i, character = 'Role ' .. i, order = i - 1 }
        end
        return list
    end
    answer_with = function(params)
        if not params.include then
            return nil, { code = -32602, message = 'should have asked with include' }
        end
        return nil, vim.tbl_extend('force', plain, {
            credits = { cast = cast(8), crew = {
                { personId = 100, name = 'David Fincher', job = 'Director', department = 'Directing' },
                { personId = 101, name = 'Jim Uhls', job = 'Screenplay', department = 'Writing' } } },
            videos = {
                { name = 'Clip', site = 'YouTube', key = 'c1', type = 'Clip', official = true,
                  url = 'https://www.youtube.com/watch?v=c1' },
                { name = 'Trailer', site = 'YouTube', key = 'SUXWAEX2jlg', type = 'Trailer', official = true,
                  url = 'https://www.youtube.com/watch?v=SUXWAEX2jlg' } },
            watchProviders = { US = { link = 'https://www.themoviedb.org/movie/550/watch?locale=US',
                flatrate = { { providerId = 8, name = 'Netflix' } }, rent = { { providerId = 2, name = 'Apple TV' } },
                buy = {}, free = {}, ads = {} },
                DE = { flatrate = { { providerId = 9, name = 'Amazon Prime Video' } } } },
            certification = 'R',
        })
    end
    vim.cmd('Movie details 550')
    H.require(H.wait_for(function()
        return #H.floats() == 1 and client.pending() == 0
    end), 'the details float opens', H.dump_notes(notes))
    local lines = H.lines(vim.api.nvim_win_get_buf(H.floats()[1]))
    local text = table.concat(lines, '\n')
    H.check(vim.deep_equal(asked[1].include, { 'credits', 'videos', 'watchProviders', 'releaseDates' }),
        'movies.details is asked to include credits, videos, providers and release dates', vim.inspect(asked[1]))
    H.check(asked[1].region == 'US', 'with the configured region', vim.inspect(asked[1]))
    H.check(H.contains_line(lines, 'Director: David Fincher') ~= nil, 'the director is shown', text)
    H.check(table.concat(lines, ' '):find('Cast: Actor 1 (Role 1), Actor 2 (Role 2), Actor 3 (Role 3), Actor 4 '
        .. '(Role 4), Actor 5', 1, true) ~= nil, 'the five top-billed actors, in billing order (wrapped)', text)
    H.check(not text:find('Actor 6', 1, true), 'no more than five', text)
    H.check(H.contains_line(lines, 'Trailer: https://www.youtube.com/watch?v=SUXWAEX2jlg') ~= nil,
        'the trailer (not the clip) URL is shown', text)
    H.check(H.contains_line(lines, 'Watch (US): Stream: Netflix · Rent: Apple TV') ~= nil,
        "the region's providers, by kind", text)
    H.check(not text:find('Amazon', 1, true), "another region's providers are not shown", text)
    H.check(H.contains_line(lines, 'Rated R (US)') ~= nil, 'the certification is shown', text)
    require('movie_rpc.float').close()

    -- Parts the answer lacks are not shown at all.
    answer_with = function()
        return nil, vim.tbl_extend('force', plain, { credits = { cast = {}, crew = {} }, videos = {},
            watchProviders = vim.empty_dict() })
    end
    vim.cmd('Movie details 550')
    H.require(H.wait_for(function()
        return #H.floats() == 1 and client.pending() == 0
    end), 'the float opens for an answer without extras', H.dump_notes(notes))
    text = table.concat(H.lines(vim.api.nvim_win_get_buf(H.floats()[1])), '\n')
    for _, label in ipairs({ 'Director:', 'Cast:', 'Trailer:', 'Watch (', 'Rated' }) do
        H.check(not text:find(label, 1, true), 'no "' .. label .. '" line when the answer has none', text)
    end
    require('movie_rpc.float').close()

    -- The demo catalog refuses the parts it lacks (-32034): the plain details are shown, quietly, and
    -- later details of the same server are asked for without include at once.
    asked = {}
    answer_with = function(params)
        if params.include then
            return { code = -32034, message = 'credits are not in the demo catalog',
                data = { kind = 'unavailableInDemo' } }, nil
        end
        return nil, plain
    end
    vim.cmd('Movie details 550')
    H.require(H.wait_for(function()
        return #H.floats() == 1 and client.pending() == 0
    end), 'after -32034 the plain details are shown', H.dump_notes(notes))
    H.check(#asked == 2 and asked[1].include ~= nil and asked[2].include == nil,
        'asked once with include, then without', vim.inspect(asked))
    require('movie_rpc.float').close()
    vim.cmd('Movie details 550')
    H.wait_for(function()
        return #H.floats() == 1 and client.pending() == 0
    end)
    H.check(#asked == 3 and asked[3].include == nil, 'the next details skip include on this server', vim.inspect(asked))
    H.check(H.find_note(notes, 'demo', vim.log.levels.ERROR) == nil, 'no error is shown for -32034',
        H.dump_notes(notes))
    require('movie_rpc.float').close()

    -- The real server of this branch: include unknown (-32602) or refused in the demo (-32034), the
    -- float opens either way, without an error.
    client.request = real_request
    require('movie_rpc').stop()
    vim.cmd('Movie details 550')
    H.require(H.wait_for(function()
        return #H.floats() == 1 and client.pending() == 0
    end), 'against the real server the details float opens', H.dump_notes(notes))
    local errors = 0
    for _, n in ipairs(notes) do
        errors = errors + ((n.level == vim.log.levels.ERROR) and 1 or 0)
    end
    H.check(errors == 0, 'and no error was shown', H.dump_notes(notes))
end)
