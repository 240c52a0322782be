--- Who is logged in, and the :MovieLogin / :MovieRegister / :MovieLogout flows.
--- The session lives in the server's data directory; this module mirrors it after one auth.status.
local client = require('movie_rpc.client')
local compat = require('movie_rpc.compat')

local M = {}

local METHOD_NOT_FOUND = -32601

local state = {
    known = false, -- auth.status answered (or the server has no accounts)
    user = nil,    -- the User object when logged in
}

local listeners = {}

--- `fn()` runs after every login, registration and logout.
function M.on_change(fn)
    listeners[#listeners + 1] = fn
end

local function set_user(user)
    state.known = true
    state.user = user
    for _, fn in ipairs(listeners) do
        local ok, err = pcall(fn, user)
        if not ok then
            vim.notify('movie-rpc: ' .. tostring(err), vim.log.levels.ERROR)
        end
    end
end

--- Forgets what is known, so the next ensure() asks the server again.
function M.reset()
    state.known = false
    state.user = nil
end

--- The logged-in user, or nil; only meaningful once known.
function M.user()
    return state.user
end

function M.logged_in()
    return state.user ~= nil
end

--- Calls `callback(user_or_nil)` once the session is known (one auth.status the first time).
function M.ensure(callback)
    if state.known then
        callback(state.user)
        return
    end
    client.request('auth.status', nil, function(err, result)
        if err then
            if err.code ~= METHOD_NOT_FOUND then
                client.notify_error(err)
            end
            state.known = err.code == METHOD_NOT_FOUND
            state.user = nil
        else
            state.known = true
            state.user = result.loggedIn and compat.value(result.user) or nil
        end
        callback(state.user)
    end)
end

--- Called when the server says nobody is logged in (-32011), e.g. after another process logged out.
function M.forget_user()
    if state.user ~= nil then
        set_user(nil)
    end
end

local function describe(user)
    local name = compat.value(user.displayName)
    if name and name ~= '' then
        return string.format('%s <%s>', name, user.email)
    end
    return user.email
end

local function ask(prompt)
    local ok, value = pcall(vim.fn.input, prompt)
    if not ok then
        return nil -- <C-c>
    end
    return vim.trim(value)
end

local function ask_secret(prompt)
    local ok, value = pcall(vim.fn.inputsecret, prompt)
    if not ok then
        return nil
    end
    return value
end

local function cancelled()
    vim.notify('movie-rpc: cancelled', vim.log.levels.WARN)
end

--- :MovieLogin: email with input(), password with inputsecret(), then auth.login.
function M.login()
    local email = ask('Email: ')
    if not email or email == '' then
        return cancelled()
    end
    local password = ask_secret('Password: ')
    if not password or password == '' then
        return cancelled()
    end
    client.request('auth.login', { email = email, password = password }, function(err, result)
        if err then
            return client.notify_error(err)
        end
        set_user(result.user)
        vim.notify('movie-rpc: logged in as ' .. describe(result.user), vim.log.levels.INFO)
    end)
end

local function problems_text(fields)
    local parts = {}
    for _, f in ipairs(fields or {}) do
        parts[#parts + 1] = string.format('%s %s', tostring(f.field), tostring(f.problem))
    end
    return table.concat(parts, '; ')
end

--- :MovieRegister: email, password and its confirmation; auth.validate checks them first and its
--- problems are shown without sending anything else; then auth.register (which also logs in).
function M.register()
    local email = ask('Email: ')
    if not email or email == '' then
        return cancelled()
    end
    local password = ask_secret('Password: ')
    if not password then
        return cancelled()
    end
    local confirmation = ask_secret('Confirm password: ')
    if not confirmation then
        return cancelled()
    end
    local params = { email = email, password = password, passwordConfirmation = confirmation }
    client.request('auth.validate', params, function(err, validation)
        if err then
            return client.notify_error(err)
        end
        if not validation.valid then
            vim.notify('movie-rpc: cannot register: ' .. problems_text(validation.fields), vim.log.levels.ERROR)
            return
        end
        client.request('auth.register', params, function(reg_err, result)
            if reg_err then
                return client.notify_error(reg_err)
            end
            set_user(result.user)
            vim.notify('movie-rpc: registered and logged in as ' .. describe(result.user), vim.log.levels.INFO)
        end)
    end)
end

--- :MovieLogout: auth.logout (answers also when nobody was logged in).
function M.logout()
    client.request('auth.logout', nil, function(err)
        if err then
            return client.notify_error(err)
        end
        set_user(nil)
        vim.notify('movie-rpc: logged out', vim.log.levels.INFO)
    end)
end

return M
