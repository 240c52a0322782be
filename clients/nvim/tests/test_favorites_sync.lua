-- The favorites buffer's marker of changes not yet pushed to the cloud: asked with sync.status after the
-- list loads, after f and when the buffer is entered; nothing with sync disabled (the real server in demo
-- mode), "⟳ N pending" while a (faked) sync.status says so, gone once it says 0; never waits for it.
local H = dofile(vim.fn.fnamemodify(debug.getinfo(1, 'S').source:sub(2), ':p:h') .. '/helpers.lua')

local EMAIL, PASSWORD = 'ada@example.com', 'correct horse'

H.run('favorites sync marker', function()
    local movie_rpc = H.setup()
    local notes = H.capture_notify()
    local format = require('movie_rpc.format')
    local list = require('movie_rpc.list')
    local client = require('movie_rpc.client')
    H.require_methods({ 'auth.register', 'favorites.add', 'favorites.list', 'sync.status' })

    -- The formatting.
    H.check(format.sync_marker({ enabled = true, state = 'idle', pending = 3 }) == '⟳ 3 pending', '3 pending',
        format.sync_marker({ enabled = true, state = 'idle', pending = 3 }))
    H.check(format.sync_marker({ enabled = true, state = 'offline', pending = 2 }) == '⟳ 2 pending (offline)',
        'offline says so')
    H.check(format.sync_marker({ enabled = true, state = 'error', pending = 1 }) == '⟳ 1 pending (sync error)',
        'an error says so')
    H.check(format.sync_marker({ enabled = true, state = 'idle', pending = 0 }) == '', 'nothing when 0 pending')
    H.check(format.sync_marker({ enabled = false, state = 'disabled', pending = 0 }) == '', 'nothing when disabled')
    H.check(format.sync_marker(nil) == '' and format.sync_marker(vim.NIL) == '', 'nothing without an answer')

    H.stub_inputs({ EMAIL }, { PASSWORD, PASSWORD })
    vim.cmd('MovieRegister')
    H.idle()
    H.require(movie_rpc.request_sync('auth.status').loggedIn, 'registered and logged in', H.dump_notes(notes))
    local popular = movie_rpc.request_sync('movies.popular', { page = 1 })
    H.require(popular and #popular.results >= 2, 'movies.popular answers')
    local first, second = popular.results[1], popular.results[2]
    H.require(movie_rpc.request_sync('favorites.add', { movieId = first.id }) ~= nil, 'a favorite added')

    -- The real server in demo mode: sync disabled, no marker, but it was asked.
    client.clear_sent()
    vim.cmd('MovieFavorites')
    local view = H.wait_view('favorites', 'movie-rpc://favorites')
    H.require(view ~= nil, ':MovieFavorites opens the list', H.dump_notes(notes))
    H.idle()
    H.check(H.sent_count('sync.status') >= 1, 'sync.status asked when the list loads', H.sent_count('sync.status'))
    H.check(not H.lines()[1]:find(format.SYNC_MARKER, 1, true), 'no marker with sync disabled', H.lines()[1])

    -- A fake sync.status, its answers held back at first: the buffer is drawn without waiting for them.
    local fake = { enabled = true, state = 'idle', pending = 3 }
    local held = nil  -- a list while answers are held back
    local asked = 0
    local real_request = client.request
    client.request = function(method, params, callback)
        if method ~= 'sync.status' then
            return real_request(method, params, callback)
        end
        asked = asked + 1
        local answer = vim.deepcopy(fake)
        local function reply()
            callback(nil, answer)
        end
        if held then
            held[#held + 1] = reply
        else
            vim.schedule(reply)
        end
    end
    list.SYNC_POLL_MS = 100

    held = {}
    vim.cmd('MovieFavorites')
    H.check(H.wait_for(function()
        return client.pending() == 0 and H.contains_line(H.lines(), first.title:sub(1, 20)) ~= nil
    end), 'the list is drawn', table.concat(H.lines(), '\n'))
    H.check(#held == 1 and not H.lines()[1]:find(format.SYNC_MARKER, 1, true),
        'sync.status not answered yet: no marker yet', H.lines()[1])
    local replies = held
    held = nil
    for _, reply in ipairs(replies) do
        reply()
    end
    H.check(H.wait_for(function()
        return H.lines()[1]:find('⟳ 3 pending', 1, true) ~= nil
    end), 'then the header shows 3 pending', H.lines()[1])
    H.check(H.lines()[1]:find('^Favorites · 1 in') ~= nil, 'after the count', H.lines()[1])

    -- While pending, it asks again; once 0, the marker goes.
    fake.pending = 0
    H.check(H.wait_for(function()
        return not H.lines()[1]:find(format.SYNC_MARKER, 1, true)
    end), 'gone once nothing is pending', H.lines()[1])
    local settled = asked
    vim.wait(400, function() return false end, 10)
    H.check(asked == settled, 'and it stops asking', asked - settled)

    -- A change: asked again at once.
    fake.pending = 1
    fake.state = 'offline'
    client.clear_sent()
    local favorites_win = vim.api.nvim_get_current_win()
    vim.cmd('split')  -- the favorites buffer stays shown in the other window
    vim.cmd('MoviePopular')
    local movies = H.wait_view('movies', 'movie-rpc://popular')
    H.require(movies ~= nil, ':MoviePopular opens')
    local lnum
    for l, movie in pairs(movies.rows) do
        if movie.id == second.id then
            lnum = l
        end
    end
    H.require(lnum ~= nil, 'the second movie is listed')
    settled = asked
    vim.api.nvim_win_set_cursor(0, { lnum, 0 })
    H.feed('f')
    H.idle()
    H.check(H.wait_for(function()
        return asked > settled
    end), 'f asks sync.status for the open favorites buffer')
    vim.api.nvim_set_current_win(favorites_win)
    H.check(vim.api.nvim_get_current_buf() == view.buf, 'the favorites buffer is still open')
    H.check(H.wait_for(function()
        return H.lines(view.buf)[1]:find('⟳ 1 pending (offline)', 1, true) ~= nil
    end), 'the header shows it', H.lines(view.buf)[1])

    -- Sync.status refused (an older server): no marker, no error shown.
    client.request = function(method, params, callback)
        if method ~= 'sync.status' then
            return real_request(method, params, callback)
        end
        vim.schedule(function()
            callback({ code = -32601, message = 'Method not found' }, nil)
        end)
    end
    vim.cmd('MovieFavorites')
    H.check(H.wait_for(function()
        return client.pending() == 0 and not H.lines()[1]:find(format.SYNC_MARKER, 1, true)
    end), 'no marker when sync.status is refused', H.lines()[1])
    H.check(not H.find_note(notes, 'Method not found'), 'and no error shown', H.dump_notes(notes))
    client.request = real_request
end)
