--- Options of the movie-rpc front end, set by require('movie_rpc').setup().

---@class movie_rpc.Options
---@field cmd? string|string[] The server: a program name or path, or `{ program, arg, ... }`.
---@field env? table<string, string> Environment variables added to Neovim's own for the server.
---@field timeout? integer Milliseconds the synchronous helpers (:checkhealth, tests) wait.
---@field title_width? integer Widest title column in movie lists.
---@field region? string ISO 3166-1 code (`"US"`): the watch providers and certification shown.
---@field language? string ISO 639-1, optionally with a region (`"de-DE"`), for catalog text.

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
    -- ISO 3166-1 region (e.g. "US") whose watch providers and certification the details show; nil: none.
    region = nil,
    -- Language of catalog text (e.g. "de-DE"); nil: the server's default.
    language = nil,
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
---@param opts? movie_rpc.Options
function M.set(opts)
    opts = opts or {}
    if type(opts) ~= 'table' then
        error('movie_rpc.setup: expected a table', 2)
    end
    if opts.env ~= nil and type(opts.env) ~= 'table' then
        error('movie_rpc.setup: env must be a table of NAME = value', 2)
    end
    if opts.region ~= nil and (type(opts.region) ~= 'string' or not opts.region:match('^%u%u$')) then
        error('movie_rpc.setup: region must be an ISO 3166-1 code such as "US"', 2)
    end
    if opts.language ~= nil and (type(opts.language) ~= 'string' or not opts.language:match('^%l%l')) then
        error('movie_rpc.setup: language must be an ISO 639-1 code such as "en" or "de-DE"', 2)
    end
    local merged = vim.tbl_extend('force', vim.deepcopy(defaults), opts)
    merged.cmd = normalize_cmd(merged.cmd)
    current = merged
end

---@return movie_rpc.Options
function M.get()
    return current
end

return M
