-- :MovieLogout ends the session: hearts disappear, favorites need a login again.
local H = dofile(vim.fn.fnamemodify(debug.getinfo(1, 'S').source:sub(2), ':p:h') .. '/helpers.lua')

local EMAIL, PASSWORD = 'grace@example.com', 'hopper'

local function hearts()
    local n = 0
    for _, line in ipairs(H.lines()) do
        n = n + (line:find('♥', 1, true) and 1 or 0)
    end
    return n
end

H.run('logout', function()
    local movie_rpc = H.setup()
    local notes = H.capture_notify()
    H.require_methods({ 'auth.register', 'auth.logout', 'auth.status', 'favorites.add', 'favorites.contains',
        'favorites.list' })

    H.stub_inputs({ EMAIL }, { PASSWORD, PASSWORD })
    vim.cmd('MovieRegister')
    H.idle()
    H.require(movie_rpc.request_sync('auth.status').loggedIn, 'registered and logged in', H.dump_notes(notes))

    vim.cmd('MoviePopular')
    local view = H.wait_view('movies', 'popular')
    H.require(view ~= nil, 'popular list open')
    vim.api.nvim_win_set_cursor(0, { 3, 0 })
    H.feed('f')
    H.idle()
    H.check(hearts() == 1, 'one heart before logging out')

    vim.cmd('MovieLogout')
    H.idle()
    H.check(H.find_note(notes, 'logged out', vim.log.levels.INFO), ':MovieLogout says so', H.dump_notes(notes))
    local status = movie_rpc.request_sync('auth.status')
    H.check(status and status.loggedIn == false, 'auth.status: not logged in')
    H.check(require('movie_rpc.session').logged_in() == false, 'the plugin knows nobody is logged in')
    H.check(hearts() == 0, 'hearts gone from the open list')

    -- Pages drawn after the logout do not ask favorites.contains.
    require('movie_rpc.client').clear_sent()
    H.feed(']p')
    H.check(H.wait_for(function()
        return view.page.page == 2 and H.idle()
    end), ']p still works logged out')
    H.check(H.sent_count('favorites.contains') == 0, 'no favorites.contains when logged out')

    -- Favorites need a login: the server's message at ERROR level.
    local _, login_err = movie_rpc.request_sync('favorites.list', { groupBy = 'genre' })
    H.require(login_err and login_err.code == -32011, 'favorites.list refuses with -32011 when logged out')
    local before = #notes
    vim.cmd('MovieFavorites')
    H.idle()
    local shown = false
    for i = before + 1, #notes do
        shown = shown or (notes[i].level == vim.log.levels.ERROR and notes[i].msg:find(login_err.message, 1, true))
    end
    H.check(shown, ':MovieFavorites shows "' .. login_err.message .. '" at ERROR level', H.dump_notes(notes))

    before = #notes
    vim.api.nvim_win_set_cursor(0, { 3, 0 })
    H.feed('f')
    H.idle()
    local refused = false
    for i = before + 1, #notes do
        refused = refused or (notes[i].level == vim.log.levels.ERROR and notes[i].msg:find(login_err.message, 1, true))
    end
    H.check(refused, 'f logged out shows the login error', H.dump_notes(notes))
    H.check(hearts() == 0, 'and draws no heart')

    -- Logging out twice is fine (the server answers the login route either way).
    before = #notes
    vim.cmd('MovieLogout')
    H.idle()
    H.check(H.find_note(vim.list_slice(notes, before + 1), 'logged out', vim.log.levels.INFO),
        'a second logout is fine')
end)
