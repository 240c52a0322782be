-- movie-rpc commands. See :help movie-rpc.
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

command('MovieGenres', function()
    require('movie_rpc').genres()
end, { nargs = 0, desc = 'movie-rpc: pick a genre, list its movies' })

command('MoviePopular', function(o)
    require('movie_rpc').popular(tonumber(o.args))
end, { nargs = '?', desc = 'movie-rpc: popular movies' })

command('MovieLatest', function()
    require('movie_rpc').latest()
end, { nargs = 0, desc = 'movie-rpc: the newest movie record' })

command('MovieDetails', function(o)
    require('movie_rpc').details(o.args)
end, { nargs = 1, desc = "movie-rpc: a movie's details" })

command('MovieFavorites', function()
    require('movie_rpc').favorites()
end, { nargs = 0, desc = 'movie-rpc: favorites grouped by genre' })

command('MovieLogin', function()
    require('movie_rpc').login()
end, { nargs = 0, desc = 'movie-rpc: log in' })

command('MovieRegister', function()
    require('movie_rpc').register()
end, { nargs = 0, desc = 'movie-rpc: create an account' })

command('MovieLogout', function()
    require('movie_rpc').logout()
end, { nargs = 0, desc = 'movie-rpc: log out' })

command('MovieSync', function(o)
    require('movie_rpc').sync(o.fargs)
end, { nargs = '*', desc = 'movie-rpc: save the catalog for offline use' })

command('MovieEvents', function(o)
    require('movie_rpc').events(o.args)
end, { nargs = '?', desc = 'movie-rpc: the activity log' })

vim.api.nvim_create_autocmd('VimLeavePre', {
    group = vim.api.nvim_create_augroup('movie_rpc', { clear = true }),
    callback = function()
        local client = package.loaded['movie_rpc.client']
        if client then
            client.stop()
        end
    end,
})
