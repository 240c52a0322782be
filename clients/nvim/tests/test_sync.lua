-- :MovieSync sends catalog.sync with a progressToken and shows each $/progress as it arrives.
local H = dofile(vim.fn.fnamemodify(debug.getinfo(1, 'S').source:sub(2), ':p:h') .. '/helpers.lua')

H.run('sync progress', function()
    local movie_rpc = H.setup()
    local notes = H.capture_notify()
    local client = require('movie_rpc.client')

    -- Watch the wire: every $/progress the server sends, and the params of catalog.sync.
    local rpc = client.start()
    H.require(rpc ~= nil, 'the server starts')
    local sent_params
    local real_request = rpc.request
    rpc.request = function(method, params, callback, ...)
        if method == 'catalog.sync' then
            sent_params = params
        end
        return real_request(method, params, callback, ...)
    end

    vim.cmd('MovieSync 2')
    H.check(H.wait_for(function()
        return H.find_note(notes, 'sync done', vim.log.levels.INFO) ~= nil
    end, 60000), ':MovieSync finishes', H.dump_notes(notes))
    H.idle()
    H.require(sent_params ~= nil, 'catalog.sync was sent')
    H.check(type(sent_params.progressToken) == 'string' and sent_params.progressToken ~= '',
        'with a progressToken', vim.inspect(sent_params))
    H.check(sent_params.popularPages == 2, ':MovieSync 2 asks for 2 popular pages')

    local progress, done_at = {}, nil
    for i, n in ipairs(notes) do
        local done, total = n.msg:match('sync (%d+)/(%d+)')
        if done then
            progress[#progress + 1] = { done = tonumber(done), total = tonumber(total), at = i, msg = n.msg }
        end
        if n.msg:find('sync done', 1, true) then
            done_at = i
        end
    end
    H.check(#progress >= 2, 'progress notifications shown', H.dump_notes(notes))
    local total = progress[1] and progress[1].total
    H.check(total == 3, 'total = genres + 2 pages', total)
    local increasing = true
    for i, p in ipairs(progress) do
        increasing = increasing and p.done == i and p.total == total and p.at < done_at
    end
    H.check(increasing, 'progress counts up, each shown before the result', H.dump_notes(notes))
    H.check(progress[#progress] and progress[#progress].done == total, 'the last progress is total/total')
    H.check(progress[2] and progress[2].msg:find('page', 1, true), 'with the server\'s message',
        progress[2] and progress[2].msg)
    H.check(notes[done_at].msg:find('2 pages', 1, true), 'the result counts the pages', notes[done_at].msg)

    -- A bad argument is refused before anything is sent; the server's range check surfaces as an error.
    client.clear_sent()
    vim.cmd('MovieSync lots')
    H.check(#client.sent_methods() == 0 and H.find_note(notes, 'unknown argument', vim.log.levels.ERROR),
        ':MovieSync lots is refused')
    vim.cmd('MovieSync 99')
    H.idle()
    local _, err = movie_rpc.request_sync('catalog.sync', { popularPages = 99 })
    H.check(err and H.find_note(notes, err.message, vim.log.levels.ERROR), 'popularPages 99: the server\'s error',
        H.dump_notes(notes))
end)
