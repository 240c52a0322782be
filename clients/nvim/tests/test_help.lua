-- doc/movie-rpc.txt: its tags resolve (scripts/nvim-tests.sh runs :helptags first).
local H = dofile(vim.fn.fnamemodify(debug.getinfo(1, 'S').source:sub(2), ':p:h') .. '/helpers.lua')

H.run('help', function()
    H.setup()
    local tags = {
        'movie-rpc.txt', 'movie-rpc', 'movie-rpc-setup', 'movie_rpc.setup()', 'movie-rpc-commands',
        'movie-rpc-keys', 'movie-rpc-markers', 'movie-rpc-errors', 'movie-rpc-health', 'movie-rpc-lua',
        ':MovieGenres', ':MoviePopular', ':MovieLatest', ':MovieDetails', ':MovieFavorites', ':MovieLogin',
        ':MovieRegister', ':MovieLogout', ':MovieSync', ':MovieEvents', 'movie-rpc-f', 'movie-rpc-]p',
        ':Movie', ':Movie-search', ':Movie-genre', ':Movie-details', ':MovieSearch', 'movie-rpc-aliases',
    }
    for _, tag in ipairs(tags) do
        local ok, err = pcall(vim.cmd, 'help ' .. vim.fn.escape(tag, ' '))
        H.check(ok and vim.bo.buftype == 'help' and vim.fn.expand('%:t') == 'movie-rpc.txt', ':help ' .. tag, err)
        pcall(vim.cmd, 'helpclose')
    end
    for _, command in ipairs({ 'MovieGenres', 'MoviePopular', 'MovieLatest', 'MovieDetails', 'MovieFavorites',
        'MovieLogin', 'MovieRegister', 'MovieLogout', 'MovieSync', 'MovieEvents' }) do
        H.check(vim.fn.exists(':' .. command) == 2, ':' .. command .. ' exists')
    end
end)
