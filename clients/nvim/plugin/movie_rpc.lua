-- movie-rpc commands. See :help movie-rpc. SPDX-License-Identifier: Apache-2.0
if vim.g.loaded_movie_rpc then
    return
end
if vim.fn.has('nvim-0.7') == 0 then
    vim.api.nvim_echo({ { 'movie-rpc needs Neovim 0.7 or newer', 'ErrorMsg' } }, true, {})
    return
end
vim.g.loaded_movie_rpc = 1

local function command(name, fn, opts)
    vim.api.nvim_create_user_command(name, fn, opts)
end

-- One command with subcommands, completed (subcommands, genre names): see :help :Movie.
command('Movie', function(o)
    require('movie_rpc').command(o.fargs)
end, {
    nargs = '+',
    complete = function(arglead, cmdline)
        return require('movie_rpc').complete(arglead, cmdline)
    end,
    desc = 'movie-rpc: :Movie {popular|genres|genre|search|latest|details|favorites|login|register|logout|sync|events}',
})

-- The older commands, kept as thin aliases of :Movie {subcommand} (see :help movie-rpc-aliases).
local aliases = {
    { 'MovieGenres', 'genres', 0 },
    { 'MoviePopular', 'popular', '?' },
    { 'MovieSearch', 'search', '+' },
    { 'MovieLatest', 'latest', 0 },
    { 'MovieDetails', 'details', 1 },
    { 'MovieFavorites', 'favorites', 0 },
    { 'MovieLogin', 'login', 0 },
    { 'MovieRegister', 'register', 0 },
    { 'MovieLogout', 'logout', 0 },
    { 'MovieSync', 'sync', '*' },
    { 'MovieEvents', 'events', '?' },
}
for _, alias in ipairs(aliases) do
    local name, subcommand, nargs = alias[1], alias[2], alias[3]
    command(name, function(o)
        require('movie_rpc').command(vim.list_extend({ subcommand }, o.fargs))
    end, { nargs = nargs, desc = 'movie-rpc: alias of :Movie ' .. subcommand })
end

vim.api.nvim_create_autocmd('VimLeavePre', {
    group = vim.api.nvim_create_augroup('movie_rpc', { clear = true }),
    callback = function()
        local client = package.loaded['movie_rpc.client']
        if client then
            client.stop()
        end
    end,
})
