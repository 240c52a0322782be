-- :MovieEvents lists the activity log newest first; <CR> shows one event; :MovieEvents {query} searches.
local H = dofile(vim.fn.fnamemodify(debug.getinfo(1, 'S').source:sub(2), ':p:h') .. '/helpers.lua')

H.run('events', function()
    local movie_rpc = H.setup()
    local notes = H.capture_notify()
    H.require_methods({ 'events.list', 'events.search', 'events.add' })

    vim.cmd('MoviePopular')
    H.require(H.wait_view('movies', 'popular') ~= nil, 'popular list open')
    -- The same page again: one event counting both.
    H.require(movie_rpc.request_sync('movies.popular', { page = 1 }) ~= nil, 'popular page 1 again')
    local added = movie_rpc.request_sync('events.add', { name = 'tester.note', params = { screen = 'nvim', n = 7 } })
    H.require(added ~= nil, 'events.add stores a tester event')

    vim.cmd('MovieEvents')
    local view = H.wait_view('events')
    H.require(view ~= nil, ':MovieEvents opens the events list', H.dump_notes(notes))
    local expected = movie_rpc.request_sync('events.list', { limit = 50 })
    local lines = H.lines()
    H.check(lines[1]:find('^Events · page 1'), 'header', lines[1])
    H.check(#lines - 2 == #expected.events, 'one line per event', (#lines - 2) .. ' vs ' .. #expected.events)
    H.check(lines[3]:find('tester.note', 1, true) and lines[3]:find('n=7 screen=nvim', 1, true),
        'newest first, with its params', lines[3])
    H.check(H.contains_line(lines, 'popular.opened ×2') ~= nil, ':MoviePopular and its repeat were recorded as one run',
        table.concat(lines, '\n'))

    vim.api.nvim_win_set_cursor(0, { 3, 0 })
    H.feed('<CR>')
    H.check(H.wait_for(function()
        return #H.floats() == 1
    end, 2000), '<CR> shows the event')
    local shown = table.concat(H.lines(vim.api.nvim_win_get_buf(H.floats()[1])), '\n')
    H.check(shown:find('tester.note', 1, true) and shown:find('screen = nvim', 1, true), 'name and params', shown)
    H.feed('q')

    vim.cmd('MovieEvents tester')
    H.check(H.wait_for(function()
        local v = require('movie_rpc.list').view()
        return v and v.kind == 'events' and v.method == 'events.search' and H.idle()
    end), ':MovieEvents tester searches')
    lines = H.lines()
    H.check(#lines == 3 and lines[3]:find('tester.note', 1, true), 'only the matching event',
        table.concat(lines, '\n'))
end)
