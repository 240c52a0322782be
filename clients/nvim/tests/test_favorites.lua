-- :MovieRegister, :MovieLogin, f toggles the heart (favorites.add / favorites.remove), one
-- favorites.contains per page, :MovieFavorites grouped by genre.
local H = dofile(vim.fn.fnamemodify(debug.getinfo(1, 'S').source:sub(2), ':p:h') .. '/helpers.lua')

local EMAIL, PASSWORD = 'ada@example.com', 'correct horse'

local function heart(lnum)
    return (H.lines()[lnum] or ''):find('♥', 1, true) ~= nil
end

local function contains(movie_rpc, id)
    local result = movie_rpc.request_sync('favorites.contains', { movieIds = { id } })
    return result and result.contains[tostring(id)]
end

H.run('register, login, favorites', function()
    local movie_rpc = H.setup()
    local notes = H.capture_notify()
    H.require_methods({ 'auth.validate', 'auth.register', 'auth.login', 'auth.logout', 'auth.status',
        'favorites.add', 'favorites.remove', 'favorites.list', 'favorites.contains' })

    -- Register: input() gives the email, inputsecret() the password twice.
    H.stub_inputs({ EMAIL }, { PASSWORD, PASSWORD })
    vim.cmd('MovieRegister')
    H.idle()
    H.check(H.find_note(notes, 'registered and logged in as ' .. EMAIL, vim.log.levels.INFO),
        ':MovieRegister registers and logs in', H.dump_notes(notes))
    local status = movie_rpc.request_sync('auth.status')
    H.check(status and status.loggedIn and status.user.email == EMAIL, 'auth.status: logged in after register')

    -- Log out, then :MovieLogin.
    vim.cmd('MovieLogout')
    H.idle()
    H.check(not movie_rpc.request_sync('auth.status').loggedIn, 'logged out before logging in')
    H.stub_inputs({ EMAIL }, { PASSWORD })
    vim.cmd('MovieLogin')
    H.idle()
    H.check(H.find_note(notes, 'logged in as ' .. EMAIL, vim.log.levels.INFO), ':MovieLogin logs in',
        H.dump_notes(notes))
    status = movie_rpc.request_sync('auth.status')
    H.check(status and status.loggedIn and status.user.email == EMAIL, 'auth.status: logged in after :MovieLogin')

    -- A page draws its hearts from one favorites.contains call.
    require('movie_rpc.client').clear_sent()
    vim.cmd('MoviePopular')
    local view = H.wait_view('movies', 'movie-rpc://popular')
    H.require(view ~= nil, ':MoviePopular opens the list', H.dump_notes(notes))
    H.check(H.sent_count('favorites.contains') == 1, 'one favorites.contains for the page',
        H.sent_count('favorites.contains'))
    H.check(not heart(3) and not heart(4), 'no hearts yet')

    local first, second = view.rows[3], view.rows[4]
    vim.api.nvim_win_set_cursor(0, { 3, 0 })
    H.feed('f')
    H.idle()
    H.check(heart(3), 'f draws the heart', H.lines()[3])
    H.check(H.lines()[3]:find(first.title:sub(1, 20), 1, true), 'on the same movie line')
    H.check(contains(movie_rpc, first.id) == true, 'the server has it as a favorite')
    H.check(vim.api.nvim_win_get_cursor(0)[1] == 3, 'cursor stays on the line')

    H.feed('f')
    H.idle()
    H.check(not heart(3), 'f again removes the heart', H.lines()[3])
    H.check(contains(movie_rpc, first.id) == false, 'the server no longer has it')

    H.feed('f')
    vim.api.nvim_win_set_cursor(0, { 4, 0 })
    H.feed('f')
    H.idle()
    H.check(heart(3) and heart(4), 'two favorites marked')

    -- Next page: again exactly one favorites.contains; back: hearts still drawn from the server.
    require('movie_rpc.client').clear_sent()
    H.feed(']p')
    H.check(H.wait_for(function()
        return view.page.page == 2 and H.idle()
    end), ']p to page 2')
    H.check(H.sent_count('favorites.contains') == 1, 'one favorites.contains for page 2',
        H.sent_count('favorites.contains'))
    H.feed('[p')
    H.check(H.wait_for(function()
        return view.page.page == 1 and H.idle()
    end), '[p to page 1')
    H.check(heart(3) and heart(4) and not heart(5), 'hearts redrawn from favorites.contains')

    -- :MovieFavorites: sections per genre, sorted like the server's favorites.list {groupBy: "genre"}.
    vim.cmd('MovieFavorites')
    local fav_view = H.wait_view('favorites')
    H.require(fav_view ~= nil, ':MovieFavorites opens the favorites list', H.dump_notes(notes))
    local lines = H.lines()
    H.check(lines[1]:find('Favorites · 2', 1, true) and lines[1]:find('grouped by genre', 1, true),
        'header: 2 favorites grouped by genre', lines[1])
    local expected = movie_rpc.request_sync('favorites.list', { groupBy = 'genre' })
    H.require(expected and expected.sections, 'favorites.list {groupBy: "genre"} answers')
    local want = {}
    for _, section in ipairs(expected.sections) do
        want[#want + 1] = string.format('%s (%d)', section.genre.name, #section.movies)
        for _, fav in ipairs(section.movies) do
            want[#want + 1] = '  ' .. fav.movie.title:sub(1, 20)
        end
    end
    local got_ok = #lines - 2 == #want
    for i, text in ipairs(want) do
        got_ok = got_ok and (lines[i + 2] or ''):find(text, 1, true) == 1
    end
    H.check(got_ok, 'sections and movies in the order of favorites.list',
        'want:\n' .. table.concat(want, '\n') .. '\ngot:\n' .. table.concat(lines, '\n'))
    local genres_of_first = {}
    local names = {}
    for _, g in ipairs(movie_rpc.request_sync('genres.list').genres) do
        names[g.id] = g.name
    end
    for _, id in ipairs(first.genreIds) do
        genres_of_first[#genres_of_first + 1] = names[id]
    end
    local under_each = #genres_of_first > 0
    for _, name in ipairs(genres_of_first) do
        local at = H.contains_line(lines, name .. ' (')
        local found = false
        for l = (at or #lines) + 1, #lines do
            if not lines[l]:find('^  ') then
                break
            end
            found = found or lines[l]:find(first.title:sub(1, 20), 1, true) ~= nil
        end
        under_each = under_each and found
    end
    H.check(under_each, 'the first favorite appears under each of its genres', table.concat(genres_of_first, ', '))
    local hearts = 0
    for l = 3, #lines do
        if lines[l]:find('^  ') then
            hearts = hearts + (lines[l]:find('♥', 1, true) and 1 or 0)
        end
    end
    H.check(hearts == #want - #expected.sections, 'every favorite line has its heart')

    -- f in the favorites list removes the favorite: every line of that movie loses its heart.
    local lnum = H.contains_line(lines, '  ' .. first.title:sub(1, 20))
    vim.api.nvim_win_set_cursor(0, { lnum, 0 })
    H.feed('f')
    H.idle()
    local still = 0
    for _, line in ipairs(H.lines()) do
        if line:find(first.title:sub(1, 20), 1, true) and line:find('♥', 1, true) then
            still = still + 1
        end
    end
    H.check(still == 0, 'f in the favorites list clears the heart on all its lines')
    H.check(contains(movie_rpc, first.id) == false, 'and the server removed it')
end)
