--- The connection to the movie-rpc server: one process per Neovim, started on first use through
--- vim.lsp.rpc (Content-Length framing), with asynchronous requests, a synchronous helper for
--- :checkhealth and tests, and $/progress routing by token.
local compat = require('movie_rpc.compat')
local config = require('movie_rpc.config')

local M = {}

local state = {
    rpc = nil,          -- the client returned by vim.lsp.rpc.start
    generation = 0,     -- bumped on every start, so a late on_exit cannot clear a newer process
    pending = {},       -- key -> finish(err, result), to fail requests when the process dies
    pending_count = 0,  -- requests whose callback has not returned yet
    progress = {},      -- token -> function(value)
    token_seq = 0,
    sent = {},          -- methods sent, oldest first (the last 200), for tests and debugging
    exit_code = nil,
}

--- Method names this client sent, oldest first (a copy).
function M.sent_methods()
    return vim.deepcopy(state.sent)
end

--- Forgets the sent-method history.
function M.clear_sent()
    state.sent = {}
end

--- Requests sent whose callbacks have not finished.
function M.pending()
    return state.pending_count
end

--- A number that changes whenever a new server process is started (or the old one stopped), so what
--- was learnt about one process (e.g. that it refuses a param) is not applied to the next.
---@return integer
function M.generation()
    return state.generation
end

function M.is_running()
    return state.rpc ~= nil
end

--- A fresh progress token; `handler(value)` gets each $/progress value sent with it.
function M.progress_token(handler)
    state.token_seq = state.token_seq + 1
    local token = string.format('movie-rpc-nvim-%d-%d', vim.fn.getpid(), state.token_seq)
    state.progress[token] = handler
    return token
end

function M.release_token(token)
    state.progress[token] = nil
end

local function fail_pending(message)
    local waiting = state.pending
    state.pending = {}
    for _, finish in pairs(waiting) do
        finish({ code = -32099, message = message }, nil)
    end
end

local function dispatchers(generation)
    return {
        notification = function(method, params)
            if method == '$/progress' and type(params) == 'table' then
                local handler = state.progress[params.token]
                if handler then
                    local ok, err = pcall(handler, params.value)
                    if not ok then
                        vim.notify('movie-rpc: progress handler failed: ' .. tostring(err), vim.log.levels.ERROR)
                    end
                end
            end
        end,
        on_exit = function(code, signal)
            vim.schedule(function()
                if state.generation ~= generation then
                    return
                end
                state.rpc = nil
                state.exit_code = code
                fail_pending(string.format('movie-rpc exited (code %s, signal %s)', tostring(code), tostring(signal)))
            end)
        end,
        on_error = function(code, err)
            -- Transport errors (unparsable frame, callback failures) go to the LSP log as usual.
            local ok, log = pcall(require, 'vim.lsp.log')
            if ok and log.error then
                log.error('movie-rpc', code, err)
            end
        end,
    }
end

--- Starts the server if it is not running. Returns the rpc client, or nil and a message.
function M.start()
    if state.rpc then
        local closing = state.rpc.is_closing and state.rpc.is_closing()
        if not closing then
            return state.rpc
        end
        state.rpc = nil
    end
    local cfg = config.get()
    local exe = cfg.cmd[1]
    if vim.fn.executable(exe) ~= 1 then
        return nil, string.format("movie-rpc: cannot start '%s': not an executable (see :help movie-rpc-setup)", exe)
    end
    state.generation = state.generation + 1
    local extra = nil
    if cfg.env then
        extra = { env = cfg.env }
    end
    local ok, rpc = pcall(compat.rpc_start, cfg.cmd, dispatchers(state.generation), extra)
    if not ok or rpc == nil then
        return nil, string.format("movie-rpc: cannot start '%s': %s", exe, tostring(rpc or 'spawn failed'))
    end
    state.rpc = rpc
    state.exit_code = nil
    return rpc
end

--- Stops the server (SIGTERM: it answers what is in flight and exits).
function M.stop()
    local rpc = state.rpc
    state.rpc = nil
    state.generation = state.generation + 1
    if rpc then
        compat.rpc_stop(rpc)
    end
    fail_pending('movie-rpc was stopped')
end

--- Sends `method` with `params` (a table, or nil for none) and calls `callback(err, result)` once
--- on the main loop. `err` is the JSON-RPC error object {code, message, data}.
function M.request(method, params, callback)
    local rpc, start_err = M.start()
    state.sent[#state.sent + 1] = method
    if #state.sent > 200 then
        table.remove(state.sent, 1)
    end
    state.pending_count = state.pending_count + 1
    local key = {}
    local done = false
    local function finish(err, result)
        if done then
            return
        end
        done = true
        state.pending[key] = nil
        local ok, cb_err = pcall(callback, err, result)
        state.pending_count = state.pending_count - 1
        if not ok then
            vim.notify('movie-rpc: ' .. tostring(cb_err), vim.log.levels.ERROR)
        end
    end
    if not rpc then
        vim.schedule(function()
            finish({ code = -32099, message = start_err }, nil)
        end)
        return
    end
    state.pending[key] = finish
    local ok, sent = pcall(rpc.request, method, params, function(err, result)
        finish(err, result)
    end)
    if not ok or not sent then
        vim.schedule(function()
            finish({ code = -32099, message = 'movie-rpc: the server is not running' }, nil)
        end)
    end
end

--- Sends `method` and waits up to `timeout` ms (default: setup's timeout) with vim.wait.
--- Returns result, err.
function M.request_sync(method, params, timeout)
    local done, result, err = false, nil, nil
    M.request(method, params, function(e, r)
        done, err, result = true, e, r
    end)
    local ok = vim.wait(timeout or config.get().timeout, function()
        return done
    end, 10)
    if not ok then
        return nil, { code = -32098, message = 'movie-rpc: no answer to ' .. method .. ' in time' }
    end
    return result, err
end

--- Waits until every request sent has been answered and its callback has returned
--- (including requests those callbacks sent). Returns true when idle.
function M.wait_idle(timeout)
    return vim.wait(timeout or config.get().timeout, function()
        return state.pending_count == 0
    end, 10)
end

--- A human message for a JSON-RPC error: the server's message plus the structured details
--- (failing fields, retry delay) it carries.
function M.error_message(err)
    if type(err) ~= 'table' then
        return tostring(err)
    end
    local message = compat.value(err.message) or ('error ' .. tostring(err.code))
    local data = compat.value(err.data)
    if type(data) == 'table' then
        local fields = compat.value(data.fields)
        if type(fields) == 'table' and #fields > 0 then
            local parts = {}
            for _, f in ipairs(fields) do
                parts[#parts + 1] = string.format('%s %s', tostring(f.field), tostring(f.problem))
            end
            message = message .. ': ' .. table.concat(parts, '; ')
        elseif type(data.field) == 'string' and not message:find(data.field, 1, true) then
            message = message .. ' (' .. data.field .. ')'
        end
        if type(data.retryAfter) == 'number' then
            message = string.format('%s (retry in %d s)', message, data.retryAfter)
        end
    end
    return message
end

--- Shows a JSON-RPC error through vim.notify at ERROR level.
function M.notify_error(err)
    local message = M.error_message(err)
    if not message:find('^movie%-rpc') then
        message = 'movie-rpc: ' .. message
    end
    vim.notify(message, vim.log.levels.ERROR)
end

return M
