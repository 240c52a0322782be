-- :MoviePopular, ]p shows the next page (different movies), [p goes back; cache/stale markers.
local H = dofile(vim.fn.fnamemodify(debug.getinfo(1, 'S').source:sub(2), ':p:h') .. '/helpers.lua')

local function ids(view)
    local list = {}
    for _, m in ipairs(view.movies) do
        list[#list + 1] = m.id
    end
    return list
end

local function movie_lines()
    local lines = H.lines()
    return vim.list_slice(lines, 3, #lines)
end

H.run('paging with ]p / [p', function()
    local movie_rpc = H.setup()
    local notes = H.capture_notify()

    vim.cmd('MoviePopular')
    local view = H.wait_view('movies', 'movie-rpc://popular')
    H.require(view ~= nil, ':MoviePopular opens the popular list', H.dump_notes(notes))
    H.require(view.page.totalPages >= 2, 'the demo catalog has several pages', view.page.totalPages)
    local header1 = H.lines()[1]
    H.check(header1:find('Popular movies · page 1/' .. view.page.totalPages, 1, true), 'header: page 1', header1)
    local page1_ids, page1_lines = ids(view), movie_lines()
    H.check(#page1_lines == 20, '20 movies on a page', #page1_lines)

    H.feed(']p')
    H.check(H.wait_for(function()
        return view.page.page == 2 and H.idle()
    end), ']p loads page 2', H.dump_notes(notes))
    H.check(H.lines()[1]:find('page 2/', 1, true), 'header: page 2', H.lines()[1])
    local page2_lines = movie_lines()
    local expected = movie_rpc.request_sync('movies.popular', { page = 2 })
    local same_as_server = #page2_lines == #expected.results
    for i, movie in ipairs(expected.results) do
        same_as_server = same_as_server and page2_lines[i]:find(movie.title:sub(1, 20), 1, true) ~= nil
    end
    H.check(same_as_server, 'page 2 lines are movies.popular page 2')
    local overlap = 0
    local seen = {}
    for _, id in ipairs(page1_ids) do
        seen[id] = true
    end
    for _, id in ipairs(ids(view)) do
        overlap = overlap + (seen[id] and 1 or 0)
    end
    H.check(overlap == 0, 'page 2 shows different movies', overlap .. ' in common')
    H.check(vim.api.nvim_win_get_cursor(0)[1] == 3, 'cursor on the first movie of the new page')

    H.feed('[p')
    H.check(H.wait_for(function()
        return view.page.page == 1 and H.idle()
    end), '[p goes back to page 1')
    H.check(vim.deep_equal(movie_lines(), page1_lines), 'page 1 again, same lines')

    -- [p on page 1 sends nothing.
    require('movie_rpc.client').clear_sent()
    H.feed('[p')
    H.idle()
    H.check(H.sent_count('movies.popular') == 0, '[p on page 1 sends no request')
    H.check(H.find_note(notes, 'first page', vim.log.levels.INFO), '[p on page 1 says so')

    -- ]p on the last page sends nothing.
    vim.cmd('MoviePopular ' .. view.page.totalPages)
    H.check(H.wait_for(function()
        return view.page.page == view.page.totalPages and H.idle()
    end), ':MoviePopular N opens page N')
    require('movie_rpc.client').clear_sent()
    H.feed(']p')
    H.idle()
    H.check(H.sent_count('movies.popular') == 0, ']p on the last page sends no request')

    -- A stopped (or crashed) server is started again by the next command.
    require('movie_rpc.client').stop()
    H.check(not require('movie_rpc.client').is_running(), 'server stopped')
    vim.cmd('MoviePopular 2')
    H.check(H.wait_for(function()
        return view.page.page == 2 and H.idle()
    end), 'the next command starts it again')

    -- Markers: none for demo answers; [cache] and [stale] in the header otherwise.
    H.check(not H.lines()[1]:find('[cache]', 1, true) and not H.lines()[1]:find('[stale]', 1, true),
        'no cache/stale marker on a demo answer', H.lines()[1])
    view.page.source = 'cache'
    require('movie_rpc.list').render(view)
    H.check(H.lines()[1]:find('[cache]', 1, true) and not H.lines()[1]:find('[stale]', 1, true),
        '[cache] marker when source == "cache"', H.lines()[1])
    view.page.source = 'network'
    view.page.stale = true
    require('movie_rpc.list').render(view)
    H.check(H.lines()[1]:find('[stale]', 1, true) and not H.lines()[1]:find('[cache]', 1, true),
        '[stale] marker when stale == true', H.lines()[1])
    view.page.source = 'cache'
    require('movie_rpc.list').render(view)
    H.check(H.lines()[1]:find('[cache] [stale]', 1, true), 'both markers together', H.lines()[1])
    local details = require('movie_rpc.format').details_lines({ title = 'X', source = 'cache', stale = true })
    H.check(vim.tbl_contains(details, '[cache] [stale]'), 'the details float carries the markers too')
end)
