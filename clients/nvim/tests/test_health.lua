-- :checkhealth movie_rpc reports the binary, its version, the catalog mode and the data directory;
-- a missing binary is reported as an error.
local H = dofile(vim.fn.fnamemodify(debug.getinfo(1, 'S').source:sub(2), ':p:h') .. '/helpers.lua')

local function health_lines()
    local ok, err = pcall(vim.cmd, 'silent checkhealth movie_rpc')
    H.check(ok, ':checkhealth movie_rpc runs without error', err)
    return H.lines(), table.concat(H.lines(), '\n')
end

H.run('checkhealth', function()
    local movie_rpc = H.setup()
    local info = movie_rpc.request_sync('server.info')
    H.require(info ~= nil, 'server.info answers')

    local lines, text = health_lines()
    H.check(text:find('movie-rpc', 1, true), 'the report has a movie-rpc section')
    H.check(not text:find('ERROR', 1, true) and not text:find('No healthcheck found', 1, true),
        'no ERROR in the report', text)
    H.check(text:find('binary found: ' .. vim.fn.exepath(H.bin), 1, true), 'binary found, with its path', text)
    local version = vim.trim(vim.fn.system({ H.bin, '--version' }))
    H.check(version ~= '' and text:find('version: ' .. version, 1, true), 'version from --version', version)
    H.check(text:find('catalog: demo', 1, true), 'catalog mode: demo')
    H.check(text:find('data directory: ' .. info.dataDirectory, 1, true), 'data directory from server.info',
        info.dataDirectory)
    H.check(vim.fn.resolve(info.dataDirectory) == vim.fn.resolve(H.home), 'which is $MOVIE_RPC_HOME')
    H.check(#lines > 5, 'a full report')

    vim.cmd('bwipeout!')
    movie_rpc.setup({ cmd = H.home .. '/no-such-movie-rpc' })
    local _, missing = health_lines()
    H.check(missing:find('ERROR', 1, true) and missing:find('binary not found', 1, true),
        'a missing binary is an ERROR', missing)
end)
