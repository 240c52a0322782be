-- :MovieGenres → pick a genre → its movies in a scratch buffer → <CR> opens the details float.
local H = dofile(vim.fn.fnamemodify(debug.getinfo(1, 'S').source:sub(2), ':p:h') .. '/helpers.lua')

H.run('genres → movies → details', function()
    local movie_rpc = H.setup()
    local notes = H.capture_notify()

    local offered
    vim.ui.select = function(items, opts, on_choice)
        offered = items
        local pick = items[1]
        for _, g in ipairs(items) do
            if g.name == 'Drama' then
                pick = g
            end
        end
        H.check(opts.format_item(pick) == pick.name, 'genres are shown by name')
        on_choice(pick)
    end

    vim.cmd('MovieGenres')
    local view = H.wait_view('movies', 'movie-rpc://genre/')
    H.require(view ~= nil, ':MovieGenres opens a genre list buffer', H.dump_notes(notes))
    H.check(offered and #offered >= 10, 'vim.ui.select offered the genres', offered and #offered)
    local genre = view.params.genreId
    local lines = H.lines()
    H.check(lines[1]:find('Drama movies', 1, true) ~= nil, 'header names the genre', lines[1])
    H.check(lines[1]:find('page 1/', 1, true) ~= nil, 'header shows the page', lines[1])

    local buf = vim.api.nvim_get_current_buf()
    H.check(vim.api.nvim_buf_get_option(buf, 'buftype') == 'nofile', 'buftype=nofile')
    H.check(vim.api.nvim_buf_get_option(buf, 'bufhidden') == 'wipe', 'bufhidden=wipe')
    H.check(vim.api.nvim_buf_get_option(buf, 'modifiable') == false, 'not modifiable')

    local page = movie_rpc.request_sync('movies.byGenre', { genreId = genre, page = 1 })
    H.require(page and #page.results > 0, 'movies.byGenre answers directly too')
    H.check(#view.movies == #page.results, 'one line per movie of the page',
        string.format('%d lines vs %d movies', #view.movies, #page.results))
    local first = page.results[1]
    local lnum, line = H.contains_line(lines, first.title:sub(1, 20))
    H.check(lnum == 3, 'first movie on the first line after the header', lnum)
    H.check(line and line:find(first.releaseDate:sub(1, 4), 1, true), 'line shows the year', line)
    H.check(line and line:find(string.format('%.1f', first.voteAverage), 1, true), 'line shows the rating', line)
    H.check(line and not line:find('♥', 1, true), 'no heart when nobody is logged in', line)
    for _, movie in ipairs(page.results) do
        local has_genre = false
        for _, id in ipairs(movie.genreIds) do
            has_genre = has_genre or id == genre
        end
        if not has_genre then
            H.check(false, 'every listed movie has the genre', movie.title)
        end
    end

    -- <CR> on the first movie: details in a floating window.
    vim.api.nvim_win_set_cursor(0, { 3, 0 })
    H.feed('<CR>')
    H.require(H.wait_for(function()
        return #H.floats() == 1 and require('movie_rpc.client').pending() == 0
    end), '<CR> opens a floating window', H.dump_notes(notes))
    local details = movie_rpc.request_sync('movies.details', { movieId = first.id })
    local float_lines = H.lines(vim.api.nvim_win_get_buf(H.floats()[1]))
    local text = table.concat(float_lines, ' ')
    H.check(float_lines[1]:find(first.title, 1, true) == 1, 'float starts with the title', float_lines[1])
    H.check(float_lines[1]:find(first.releaseDate:sub(1, 4), 1, true), 'float shows the year', float_lines[1])
    H.check(text:find(string.format('%.1f', details.voteAverage), 1, true), 'float shows the rating')
    local genre_names = {}
    for _, g in ipairs(details.genres) do
        genre_names[#genre_names + 1] = g.name
    end
    H.check(text:find('Genres: ' .. table.concat(genre_names, ', '), 1, true), 'float lists the genres', text)
    local words = vim.split(details.overview, '%s+')
    local opening = table.concat({ words[1], words[2], words[3] }, ' ')
    H.check(#details.overview > 0 and text:find(opening, 1, true) ~= nil, 'float shows the overview', opening)
    local last_word = words[#words]
    H.check(text:find(last_word, 1, true) ~= nil, 'the whole overview, wrapped', last_word)

    -- q closes it and returns to the list.
    H.feed('q')
    H.check(H.wait_for(function()
        return #H.floats() == 0
    end, 2000), 'q closes the float')
    H.check(vim.api.nvim_get_current_buf() == buf, 'back in the list')

    -- :MovieDetails {id} opens the same float; a bad id is refused before sending.
    vim.cmd('MovieDetails ' .. first.id)
    H.check(H.wait_for(function()
        return #H.floats() == 1
    end), ':MovieDetails {id} opens the float')
    require('movie_rpc.float').close()
    vim.cmd('MovieDetails abc')
    H.check(H.find_note(notes, 'needs a movie id', vim.log.levels.ERROR), ':MovieDetails abc is refused')
    local _, server_err = movie_rpc.request_sync('movies.details', { movieId = 999999999 })
    H.require(server_err ~= nil, 'the server refuses an unknown movie id')
    vim.cmd('MovieDetails 999999999')
    H.idle()
    local not_found = H.find_note(notes, server_err.message, vim.log.levels.ERROR)
    H.check(not_found ~= nil, 'an unknown id shows the server error at ERROR level', H.dump_notes(notes))

    vim.cmd('MovieLatest')
    H.check(H.wait_for(function()
        return #H.floats() == 1
    end), ':MovieLatest opens a float')
    local latest = H.lines(vim.api.nvim_win_get_buf(H.floats()[1]))
    H.check(latest[1]:find('^Latest: '), ':MovieLatest shows the newest record', latest[1])
end)
