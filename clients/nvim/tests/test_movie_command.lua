-- :Movie {subcommand} [args]: dispatch, completion of subcommands and genre names, the old commands
-- as aliases.
local H = dofile(vim.fn.fnamemodify(debug.getinfo(1, 'S').source:sub(2), ':p:h') .. '/helpers.lua')

H.run(':Movie and its completion', function()
    local movie_rpc = H.setup()
    local notes = H.capture_notify()
    H.require(vim.fn.exists(':Movie') == 2, ':Movie exists')

    local all = vim.fn.getcompletion('Movie ', 'cmdline')
    H.check(vim.deep_equal(all, movie_rpc.SUBCOMMANDS), ':Movie <Tab> offers every subcommand', vim.inspect(all))
    H.check(vim.deep_equal(vim.fn.getcompletion('Movie se', 'cmdline'), { 'search' }), ':Movie se<Tab> → search')
    H.check(vim.deep_equal(vim.fn.getcompletion('Movie l', 'cmdline'), { 'latest', 'login', 'logout' }),
        ':Movie l<Tab> → latest, login, logout')
    local genres = vim.fn.getcompletion('Movie genre ', 'cmdline')
    H.check(#genres == 19, ':Movie genre <Tab> offers the 19 genre names', vim.inspect(genres))
    H.check(vim.deep_equal(vim.fn.getcompletion('Movie genre dr', 'cmdline'), { 'Drama' }),
        ':Movie genre dr<Tab> → Drama (ignoring case)')
    H.check(vim.deep_equal(vim.fn.getcompletion('Movie genre Sci', 'cmdline'), { 'Science Fiction' }),
        ':Movie genre Sci<Tab> → Science Fiction')
    H.check(vim.deep_equal(vim.fn.getcompletion('Movie genre Science F', 'cmdline'), { 'Fiction' }),
        'a genre name with a space completes its last word')
    H.check(vim.deep_equal(vim.fn.getcompletion('Movie sync ', 'cmdline'), { 'all' }), ':Movie sync <Tab> → all')

    vim.cmd('Movie popular 2')
    local view = H.wait_view('movies', 'movie-rpc://popular')
    H.require(view ~= nil, ':Movie popular 2 opens the popular list', H.dump_notes(notes))
    H.check(view.page.page == 2, 'on page 2', view.page.page)

    vim.cmd('Movie genre science fiction')
    view = H.wait_view('movies', 'movie-rpc://genre/878')
    H.require(view ~= nil, ':Movie genre science fiction opens that genre', H.dump_notes(notes))
    H.check(H.lines()[1]:find('Science Fiction movies', 1, true) ~= nil, 'header names the genre', H.lines()[1])

    vim.cmd('Movie genre Nonsense')
    H.idle()
    H.check(H.find_note(notes, 'no genre called "Nonsense"', vim.log.levels.ERROR) ~= nil,
        'an unknown genre is an error naming it', H.dump_notes(notes))
    vim.cmd('Movie frobnicate')
    H.check(H.find_note(notes, 'unknown subcommand', vim.log.levels.ERROR) ~= nil,
        'an unknown subcommand is an error listing the subcommands', H.dump_notes(notes))

    vim.cmd('Movie details 550')
    H.require(H.wait_for(function()
        return #H.floats() == 1 and require('movie_rpc.client').pending() == 0
    end), ':Movie details 550 opens the details float', H.dump_notes(notes))
    local lines = H.lines(vim.api.nvim_win_get_buf(H.floats()[1]))
    H.check(lines[1]:find('Fight Club', 1, true) ~= nil, 'it shows Fight Club', lines[1])
    require('movie_rpc.float').close()

    for _, alias in ipairs({ 'MovieGenres', 'MoviePopular', 'MovieSearch', 'MovieLatest', 'MovieDetails',
        'MovieFavorites', 'MovieLogin', 'MovieRegister', 'MovieLogout', 'MovieSync', 'MovieEvents' }) do
        H.check(vim.fn.exists(':' .. alias) == 2, ':' .. alias .. ' is still there (an alias)')
    end
    vim.cmd('MoviePopular 3')
    view = H.wait_view('movies', 'movie-rpc://popular')
    H.check(view ~= nil and view.page.page == 3, ':MoviePopular 3 does what :Movie popular 3 does')
    local errors = 0
    for _, n in ipairs(notes) do
        if n.level == vim.log.levels.ERROR then
            errors = errors + 1
        end
    end
    H.check(errors == 2, 'no errors but the two provoked', H.dump_notes(notes))
end)
