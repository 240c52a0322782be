--- The floating window that shows one movie's (or one event's) details.
local M = {}

local current = nil -- {win, buf}

--- The window and buffer of the open details window, or nil.
function M.current()
    if current and vim.api.nvim_win_is_valid(current.win) then
        return current
    end
    current = nil
    return nil
end

function M.close()
    local open = M.current()
    current = nil
    if open then
        pcall(vim.api.nvim_win_close, open.win, true)
    end
end

--- Opens a centred floating window with `lines`; `q` or <Esc> closes it, as does leaving it.
function M.open(lines, opts)
    opts = opts or {}
    M.close()
    local format = require('movie_rpc.format')
    local drawn = {}
    for index, line in ipairs(lines) do
        drawn[index] = format.sanitize(line)
    end
    lines = drawn
    local buf = vim.api.nvim_create_buf(false, true)
    vim.api.nvim_buf_set_lines(buf, 0, -1, false, lines)
    vim.api.nvim_buf_set_option(buf, 'bufhidden', 'wipe')
    vim.api.nvim_buf_set_option(buf, 'modifiable', false)
    vim.api.nvim_buf_set_option(buf, 'filetype', opts.filetype or 'movie_rpc_details')

    local columns, rows = vim.o.columns, vim.o.lines
    local width = 20
    for _, line in ipairs(lines) do
        width = math.max(width, vim.fn.strdisplaywidth(line))
    end
    width = math.min(width, math.max(20, columns - 4))
    local height = math.min(#lines, math.max(3, rows - 4))
    local win = vim.api.nvim_open_win(buf, true, {
        relative = 'editor',
        width = width,
        height = height,
        row = math.max(0, math.floor((rows - height) / 2) - 1),
        col = math.max(0, math.floor((columns - width) / 2)),
        style = 'minimal',
        border = 'rounded',
    })
    vim.api.nvim_win_set_option(win, 'wrap', true)
    vim.api.nvim_win_set_option(win, 'linebreak', true)
    local ns = vim.api.nvim_create_namespace('movie_rpc')
    vim.api.nvim_buf_add_highlight(buf, ns, 'Title', 0, 0, -1)

    for _, key in ipairs({ 'q', '<Esc>' }) do
        vim.keymap.set('n', key, M.close, { buffer = buf, nowait = true, desc = 'Close movie-rpc details' })
    end
    vim.api.nvim_create_autocmd('WinLeave', {
        buffer = buf,
        once = true,
        callback = function()
            vim.schedule(function()
                if current and current.win == win then
                    M.close()
                end
            end)
        end,
    })
    current = { win = win, buf = buf }
    return win, buf
end

return M
