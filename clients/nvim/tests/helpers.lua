-- Shared by the headless test scripts: assertions, stubs and the exit protocol
-- (cquit 1 on any failure, qall! when everything passed). Loaded with dofile().
local H = {}

H.passed = 0
H.failed = 0

local function out(text)
    io.stdout:write(text .. '\n')
    io.stdout:flush()
end
H.out = out

--- Records one assertion; returns `cond` so callers can stop early.
function H.check(cond, what, detail)
    if cond then
        H.passed = H.passed + 1
        out('  ok    ' .. what)
    else
        H.failed = H.failed + 1
        out('  FAIL  ' .. what .. (detail and ('\n        ' .. tostring(detail)) or ''))
    end
    return cond and true or false
end

--- Records a failure and stops the script (raised through H.run).
function H.require(cond, what, detail)
    if not H.check(cond, what, detail) then
        error({ stop = true }, 0)
    end
end

function H.wait_for(predicate, timeout)
    return vim.wait(timeout or 15000, predicate, 10)
end

--- The plugin, loaded the way a user would (plugin/ is not sourced under -u NONE), pointed at
--- $MOVIE_RPC_BIN with $MOVIE_RPC_HOME.
function H.setup(extra)
    local bin = os.getenv('MOVIE_RPC_BIN')
    local home = os.getenv('MOVIE_RPC_HOME')
    H.require(bin and vim.fn.executable(bin) == 1, 'MOVIE_RPC_BIN is an executable', tostring(bin))
    H.require(home and home ~= '', 'MOVIE_RPC_HOME is set')
    vim.cmd('runtime plugin/movie_rpc.lua')
    H.require(vim.fn.exists(':MoviePopular') == 2, 'plugin/movie_rpc.lua defines the commands')
    local opts = { cmd = bin, env = { MOVIE_RPC_HOME = home } }
    for k, v in pairs(extra or {}) do
        opts[k] = v
    end
    require('movie_rpc').setup(opts)
    H.bin, H.home = bin, home
    return require('movie_rpc')
end

--- Replaces vim.notify; returns the list of {msg, level} it receives.
function H.capture_notify()
    local notes = {}
    vim.notify = function(msg, level)
        notes[#notes + 1] = { msg = tostring(msg), level = level }
    end
    return notes
end

--- The first captured notification whose message contains `text` (plain) at `level` (optional).
function H.find_note(notes, text, level)
    for _, n in ipairs(notes) do
        if n.msg:find(text, 1, true) and (level == nil or n.level == level) then
            return n
        end
    end
end

function H.dump_notes(notes)
    local parts = {}
    for _, n in ipairs(notes) do
        parts[#parts + 1] = string.format('[%s] %s', tostring(n.level), n.msg)
    end
    return table.concat(parts, '\n        ')
end

--- Answers vim.fn.input and vim.fn.inputsecret from queues (in call order).
function H.stub_inputs(inputs, secrets)
    local i, s = 0, 0
    vim.fn.input = function()
        i = i + 1
        return inputs[i] or ''
    end
    vim.fn.inputsecret = function()
        s = s + 1
        return secrets[s] or ''
    end
end

--- Types keys as the user would (mappings apply) and runs them now.
function H.feed(keys)
    vim.api.nvim_feedkeys(vim.api.nvim_replace_termcodes(keys, true, false, true), 'x', false)
end

function H.lines(buf)
    return vim.api.nvim_buf_get_lines(buf or 0, 0, -1, false)
end

function H.contains_line(lines, text)
    for i, line in ipairs(lines) do
        if line:find(text, 1, true) then
            return i, line
        end
    end
end

--- Floating windows open now.
function H.floats()
    local wins = {}
    for _, win in ipairs(vim.api.nvim_list_wins()) do
        if vim.api.nvim_win_get_config(win).relative ~= '' then
            wins[#wins + 1] = win
        end
    end
    return wins
end

--- The list view of the current buffer once it has loaded (waits for the plugin to go idle).
function H.wait_view(kind, name_part)
    local list = require('movie_rpc.list')
    local ok = H.wait_for(function()
        local view = list.view()
        return require('movie_rpc.client').pending() == 0 and view ~= nil and view.kind == kind
            and (name_part == nil or view.name:find(name_part, 1, true) ~= nil)
    end)
    return ok and list.view() or nil
end

function H.idle()
    return require('movie_rpc').wait(15000)
end

--- Methods the server offers (rpc.discover), as a set.
function H.server_methods()
    local doc, err = require('movie_rpc').request_sync('rpc.discover')
    H.require(doc ~= nil, 'rpc.discover answers', err and err.message)
    local set = {}
    for _, m in ipairs(doc.methods) do
        set[m.name] = true
    end
    return set
end

--- Fails (not skips) when the server lacks any of `names`.
function H.require_methods(names)
    local have = H.server_methods()
    local missing = {}
    for _, name in ipairs(names) do
        if not have[name] then
            missing[#missing + 1] = name
        end
    end
    H.require(#missing == 0, 'server offers ' .. table.concat(names, ', '),
        'missing from rpc.discover: ' .. table.concat(missing, ', '))
end

--- Methods sent by the plugin since the last clear, counted by name.
function H.sent_count(name)
    local n = 0
    for _, m in ipairs(require('movie_rpc.client').sent_methods()) do
        if m == name then
            n = n + 1
        end
    end
    return n
end

--- Runs the test body, prints the tally and quits: cquit 1 on any failure, qall! otherwise.
function H.run(name, body)
    out(name)
    local ok, err = xpcall(body, function(e)
        if type(e) == 'table' and e.stop then
            return e
        end
        return debug.traceback(tostring(e), 2)
    end)
    if not ok and not (type(err) == 'table' and err.stop) then
        H.failed = H.failed + 1
        out('  FAIL  error: ' .. tostring(err))
    end
    out(string.format('  %d checks passed, %d failed', H.passed, H.failed))
    pcall(function()
        require('movie_rpc').stop()
    end)
    if H.failed > 0 or H.passed == 0 then
        vim.cmd('cquit 1')
    else
        vim.cmd('qall!')
    end
end

return H
