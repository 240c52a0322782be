--- Options of the movie-rpc front end, set by require('movie_rpc').setup().
local M = {}

local defaults = {
    -- The server command: a program name or path, or a list {program, arg, ...}.
    cmd = { 'movie-rpc' },
    -- Extra environment variables for the server process (merged over Neovim's own).
    env = nil,
    -- Milliseconds the synchronous helpers (:checkhealth, tests) wait for an answer.
    timeout = 10000,
    -- Widest title column in movie lists.
    title_width = 44,
}

local current = vim.deepcopy(defaults)

--- The command as a list, whatever form the user gave.
local function normalize_cmd(cmd)
    if type(cmd) == 'string' then
        return { cmd }
    end
    if type(cmd) ~= 'table' or type(cmd[1]) ~= 'string' or cmd[1] == '' then
        error('movie_rpc: cmd must be a program name or a list {program, args...}', 3)
    end
    return vim.deepcopy(cmd)
end

--- Replaces the options; fields not given keep their defaults.
function M.set(opts)
    opts = opts or {}
    if type(opts) ~= 'table' then
        error('movie_rpc.setup: expected a table', 2)
    end
    if opts.env ~= nil and type(opts.env) ~= 'table' then
        error('movie_rpc.setup: env must be a table of NAME = value', 2)
    end
    local merged = vim.tbl_extend('force', vim.deepcopy(defaults), opts)
    merged.cmd = normalize_cmd(merged.cmd)
    current = merged
end

function M.get()
    return current
end

return M
