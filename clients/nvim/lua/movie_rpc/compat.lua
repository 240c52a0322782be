--- Differences between Neovim 0.7 and later releases, in one place.
local M = {}

--- True when running on Neovim `version` ("0.10") or newer.
function M.has(version)
    return vim.fn.has('nvim-' .. version) == 1
end

--- Starts `cmd` (a list) under vim.lsp.rpc with Content-Length framing.
--- 0.7-0.9: start(cmd, cmd_args, dispatchers, extra); 0.10+: start(cmd_list, dispatchers, extra).
function M.rpc_start(cmd, dispatchers, extra)
    local rpc = require('vim.lsp.rpc')
    if M.has('0.10') then
        return rpc.start(cmd, dispatchers, extra)
    end
    local args = {}
    for i = 2, #cmd do
        args[#args + 1] = cmd[i]
    end
    return rpc.start(cmd[1], args, dispatchers, extra)
end

--- Stops a client returned by rpc_start: terminate() on 0.8+, the uv handle on 0.7.
function M.rpc_stop(client)
    if type(client.terminate) == 'function' then
        pcall(client.terminate)
    elseif client.handle and not client.handle:is_closing() then
        pcall(client.handle.kill, client.handle, 15)
    end
end

--- JSON null arrives as nil (objects, decoded with luanil) or vim.NIL (arrays).
function M.is_null(value)
    return value == nil or value == vim.NIL
end

--- The value, or nil for JSON null.
function M.value(value)
    if value == vim.NIL then
        return nil
    end
    return value
end

--- :checkhealth reporters: vim.health.{start,ok,...} (0.10+), report_* (0.7-0.9).
function M.health()
    local h = vim.health
    if h == nil or (h.start == nil and h.report_start == nil) then
        h = require('health')
    end
    return {
        start = h.start or h.report_start,
        ok = h.ok or h.report_ok,
        info = h.info or h.report_info,
        warn = h.warn or h.report_warn,
        error = h.error or h.report_error,
    }
end

return M
