-- :Movie search {query} / :MovieSearch {query}: movies.search results in a list buffer. Skipped (with
-- the reason) while the server's rpc.discover does not list movies.search; then the command must say
-- the server lacks it instead of failing obscurely.
local H = dofile(vim.fn.fnamemodify(debug.getinfo(1, 'S').source:sub(2), ':p:h') .. '/helpers.lua')

H.run('search', function()
    H.setup()
    local notes = H.capture_notify()
    if not H.server_methods()['movies.search'] then
        vim.cmd('Movie search fight')
        H.idle()
        H.check(H.find_note(notes, 'does not offer movies.search', vim.log.levels.ERROR) ~= nil,
            'without movies.search on the server, :Movie search says so', H.dump_notes(notes))
        H.out('  SKIP  the search list: this server does not list movies.search in rpc.discover')
        return
    end

    vim.cmd('Movie search fight club')
    local view = H.wait_view('movies', 'movie-rpc://search/')
    H.require(view ~= nil, ':Movie search fight club opens a list', H.dump_notes(notes))
    local lines = H.lines()
    H.check(lines[1]:find('Search "fight club"', 1, true) ~= nil, 'the header names the query', lines[1])
    H.check(H.contains_line(lines, 'Fight Club') ~= nil, 'Fight Club is listed', vim.inspect(lines))
    H.check(view.params.query == 'fight club', 'movies.search got the whole query', vim.inspect(view.params))

    vim.cmd('MovieSearch jura')
    view = H.wait_view('movies', 'movie-rpc://search/jura')
    H.require(view ~= nil, ':MovieSearch jura opens a list', H.dump_notes(notes))
    H.check(H.contains_line(H.lines(), 'Jurassic') ~= nil, 'a prefix finds Jurassic …', vim.inspect(H.lines()))

    vim.api.nvim_win_set_cursor(0, { 3, 0 })
    H.feed('<CR>')
    H.check(H.wait_for(function()
        return #H.floats() == 1 and require('movie_rpc.client').pending() == 0
    end), '<CR> on a result opens its details', H.dump_notes(notes))
end)
