--- :checkhealth movie_rpc: the binary, its version, and what the running server says about itself.
local compat = require('movie_rpc.compat')
local config = require('movie_rpc.config')

local M = {}

local NEEDED = {
    'genres.list', 'movies.popular', 'movies.byGenre', 'movies.latest', 'movies.details', 'catalog.sync',
    'auth.validate', 'auth.register', 'auth.login', 'auth.logout', 'auth.status',
    'favorites.add', 'favorites.remove', 'favorites.list', 'favorites.contains', 'events.list', 'events.search',
}

-- Used when present: without them one command says the server lacks the method.
local OPTIONAL = { 'movies.search' }

function M.check()
    local health = compat.health()
    local cfg = config.get()
    health.start('movie-rpc')

    if vim.fn.has('nvim-0.7') == 1 then
        health.ok('Neovim ' .. tostring(vim.version().major) .. '.' .. tostring(vim.version().minor)
            .. '.' .. tostring(vim.version().patch))
    else
        health.error('Neovim 0.7 or newer is needed')
    end

    local exe = cfg.cmd[1]
    local path = vim.fn.exepath(exe)
    if vim.fn.executable(exe) ~= 1 or path == '' then
        health.error(string.format("binary not found: '%s' is not an executable", exe), {
            "Build it: swift build -c release --product movie-rpc",
            "Put it on PATH, or require('movie_rpc').setup({ cmd = '/path/to/movie-rpc' })",
        })
        return
    end
    health.ok('binary found: ' .. path)

    local version = vim.fn.system({ path, '--version' })
    if vim.v.shell_error == 0 and version:match('%S') then
        health.ok('version: ' .. vim.trim(version))
    else
        health.error(string.format('%s --version failed (exit %d): %s', path, vim.v.shell_error, vim.trim(version)))
    end

    local client = require('movie_rpc.client')
    local info, err = client.request_sync('server.info', nil, cfg.timeout)
    if not info then
        health.error('server.info failed: ' .. client.error_message(err))
        return
    end
    health.ok(string.format('server %s %s answers (framing: %s)', tostring(info.name), tostring(info.version),
        tostring(info.framing)))
    if info.catalog == 'demo' then
        health.ok('catalog: demo (the embedded demo catalog; set TMDB_ACCESS_TOKEN or TMDB_API_KEY for live TMDB)')
    else
        health.ok('catalog: ' .. tostring(info.catalog))
    end
    local dir = compat.value(info.dataDirectory)
    if dir and vim.fn.isdirectory(dir) == 1 then
        health.ok('data directory: ' .. dir)
    else
        health.warn('data directory: ' .. tostring(dir) .. ' (not found)')
    end

    local doc = client.request_sync('rpc.discover', nil, cfg.timeout)
    if doc and type(doc.methods) == 'table' then
        local have = {}
        for _, m in ipairs(doc.methods) do
            have[m.name] = true
        end
        local missing = {}
        for _, name in ipairs(NEEDED) do
            if not have[name] then
                missing[#missing + 1] = name
            end
        end
        if #missing == 0 then
            health.ok(string.format('methods: all %d the plugin uses are offered', #NEEDED))
        else
            health.warn('the server lacks ' .. table.concat(missing, ', ') .. ' (an older movie-rpc?)')
        end
        for _, name in ipairs(OPTIONAL) do
            if not have[name] then
                health.info(name .. ' is not offered: :Movie search needs a newer movie-rpc')
            end
        end
    end
end

return M
