-- :MovieRegister with a bad password: auth.validate's problem at ERROR level, no auth.register sent;
-- a wrong password at :MovieLogin shows the server's message.
local H = dofile(vim.fn.fnamemodify(debug.getinfo(1, 'S').source:sub(2), ':p:h') .. '/helpers.lua')

local EMAIL = 'linus@example.com'

local function errors_since(notes, from)
    local list = {}
    for i = from + 1, #notes do
        if notes[i].level == vim.log.levels.ERROR then
            list[#list + 1] = notes[i].msg
        end
    end
    return list
end

H.run('bad password', function()
    local movie_rpc = H.setup()
    local notes = H.capture_notify()
    H.require_methods({ 'auth.validate', 'auth.register', 'auth.login', 'auth.status' })
    local client = require('movie_rpc.client')

    -- Too short: the server's validation problem, nothing registered.
    local validation = movie_rpc.request_sync('auth.validate',
        { email = EMAIL, password = 'ab', passwordConfirmation = 'ab' })
    H.require(validation and validation.valid == false and #validation.fields > 0,
        'auth.validate refuses a 2-character password')
    local problem = validation.fields[1]
    client.clear_sent()
    H.stub_inputs({ EMAIL }, { 'ab', 'ab' })
    vim.cmd('MovieRegister')
    H.idle()
    local errs = errors_since(notes, 0)
    H.check(#errs == 1, 'one ERROR notification', H.dump_notes(notes))
    H.check(errs[1] and errs[1]:find(problem.problem, 1, true) and errs[1]:find(problem.field, 1, true),
        'it carries the server\'s problem: ' .. problem.field .. ' ' .. problem.problem, errs[1])
    H.check(H.sent_count('auth.validate') == 1, 'auth.validate was asked')
    H.check(H.sent_count('auth.register') == 0, 'no auth.register was sent')
    H.check(movie_rpc.request_sync('auth.status').loggedIn == false, 'nobody is logged in')

    -- Confirmation that differs: its problem too, still nothing sent.
    validation = movie_rpc.request_sync('auth.validate',
        { email = EMAIL, password = 'long enough', passwordConfirmation = 'different' })
    H.require(validation and validation.valid == false, 'auth.validate refuses a differing confirmation')
    client.clear_sent()
    local before = #notes
    H.stub_inputs({ EMAIL }, { 'long enough', 'different' })
    vim.cmd('MovieRegister')
    H.idle()
    errs = errors_since(notes, before)
    H.check(errs[1] and errs[1]:find(validation.fields[1].problem, 1, true), 'the confirmation problem is shown',
        H.dump_notes(notes))
    H.check(H.sent_count('auth.register') == 0, 'still no auth.register')

    -- A bad email is caught the same way.
    validation = movie_rpc.request_sync('auth.validate',
        { email = 'not-an-email', password = 'secret', passwordConfirmation = 'secret' })
    client.clear_sent()
    before = #notes
    H.stub_inputs({ 'not-an-email' }, { 'secret', 'secret' })
    vim.cmd('MovieRegister')
    H.idle()
    errs = errors_since(notes, before)
    H.check(validation and errs[1] and errs[1]:find(validation.fields[1].problem, 1, true), 'a bad email is shown',
        H.dump_notes(notes))
    H.check(H.sent_count('auth.register') == 0, 'and not sent')

    -- Wrong password at login: the server's invalidCredentials message.
    H.stub_inputs({ EMAIL }, { 'right password', 'right password' })
    vim.cmd('MovieRegister')
    H.idle()
    H.require(movie_rpc.request_sync('auth.status').loggedIn, 'a valid registration goes through')
    vim.cmd('MovieLogout')
    H.idle()
    local _, wrong = movie_rpc.request_sync('auth.login', { email = EMAIL, password = 'wrong password' })
    H.require(wrong and wrong.code == -32012, 'the server refuses a wrong password with -32012')
    before = #notes
    H.stub_inputs({ EMAIL }, { 'wrong password' })
    vim.cmd('MovieLogin')
    H.idle()
    errs = errors_since(notes, before)
    H.check(#errs == 1 and errs[1]:find(wrong.message, 1, true), ':MovieLogin shows "' .. wrong.message .. '"',
        H.dump_notes(notes))
    H.check(require('movie_rpc.session').logged_in() == false, 'still logged out')

    -- Empty email cancels without sending anything.
    client.clear_sent()
    H.stub_inputs({ '' }, {})
    vim.cmd('MovieLogin')
    H.idle()
    H.check(#client.sent_methods() == 0, 'an empty email cancels :MovieLogin')
end)
