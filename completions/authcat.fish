function __authcat_should_offer_completions_for_flags_or_options -a expected_commands
    set -l non_repeating_flags_or_options $argv[2..]
    set -l non_repeating_flags_or_options_absent 0
    set -l positional_index 0
    set -l commands
    __authcat_parse_tokens
    test "$commands" = "$expected_commands"; and return $non_repeating_flags_or_options_absent
end

function __authcat_should_offer_completions_for_positional -a expected_commands positional_index_comparison expected_positional_index
    set -l non_repeating_flags_or_options
    set -l non_repeating_flags_or_options_absent 0
    set -l positional_index 0
    set -l commands
    __authcat_parse_tokens
    test "$commands" = "$expected_commands" -a \( "$positional_index" "$positional_index_comparison" "$expected_positional_index" \)
end

function __authcat_parse_tokens -S
    set -l unparsed_tokens (__authcat_tokens -pc)
    switch $unparsed_tokens[1]
    case 'authcat'
        __authcat_parse_subcommand 0 'home=' 'version' 'h/help'
        switch $unparsed_tokens[1]
        case 'add'
            __authcat_parse_subcommand 1 'home=' 'issuer=' 'type=' 'algorithm=' 'digits=' 'period=' 'counter=' 'tag=+' 'note=' 'uri' 'version' 'h/help'
        case 'code'
            __authcat_parse_subcommand 1 'home=' 'at=' 'json' 'copy' 'keep' 'type' 'type-enter' 'watch' 'version' 'h/help'
        case 'pick'
            __authcat_parse_subcommand 1 'home=' 'copy' 'type' 'print' 'type-enter' 'keep' 'menu=' 'menu-command=' 'version' 'h/help'
        case 'list'
            __authcat_parse_subcommand 0 'home=' 'json' 'tag=+' 'removed' 'version' 'h/help'
        case 'show'
            __authcat_parse_subcommand 1 'home=' 'uri' 'qr' 'json' 'version' 'h/help'
        case 'edit'
            __authcat_parse_subcommand 1 'home=' 'issuer=' 'name=' 'tag=+' 'untag=+' 'clear-tags' 'note=' 'version' 'h/help'
        case 'rm'
            __authcat_parse_subcommand 1 'home=' 'y/yes' 'version' 'h/help'
        case 'restore'
            __authcat_parse_subcommand 1 'home=' 'version' 'h/help'
        case 'history'
            __authcat_parse_subcommand 1 'home=' 'json' 'limit=' 'all-changes' 'version' 'h/help'
        case 'passphrase'
            __authcat_parse_subcommand 0 'version' 'h/help'
            switch $unparsed_tokens[1]
            case 'set'
                __authcat_parse_subcommand 0 'home=' 'version' 'h/help'
            case 'change'
                __authcat_parse_subcommand 0 'home=' 'version' 'h/help'
            case 'remove'
                __authcat_parse_subcommand 0 'home=' 'version' 'h/help'
            end
        case 'unlock'
            __authcat_parse_subcommand 0 'home=' 'for=' 'status' 'json' 'version' 'h/help'
        case 'lock'
            __authcat_parse_subcommand 0 'home=' 'version' 'h/help'
        case 'config'
            __authcat_parse_subcommand 0 'version' 'h/help'
            switch $unparsed_tokens[1]
            case 'get'
                __authcat_parse_subcommand 1 'home=' 'synced' 'json' 'version' 'h/help'
            case 'set'
                __authcat_parse_subcommand 2 'home=' 'synced' 'version' 'h/help'
            case 'unset'
                __authcat_parse_subcommand 1 'home=' 'synced' 'version' 'h/help'
            case 'list'
                __authcat_parse_subcommand 0 'home=' 'synced' 'json' 'version' 'h/help'
            end
        case 'import'
            __authcat_parse_subcommand 1 'home=' 'format=' 'qr' 'dry-run' 'skip-invalid' 'json' 'verbose' 'version' 'h/help'
        case 'follow'
            __authcat_parse_subcommand 0 'version' 'h/help'
            switch $unparsed_tokens[1]
            case 'add'
                __authcat_parse_subcommand 1 'home=' 'format=' 'name=' 'json' 'version' 'h/help'
            case 'now'
                __authcat_parse_subcommand -r 1 'home=' 'json' 'watch' 'version' 'h/help'
            case 'list'
                __authcat_parse_subcommand 0 'home=' 'json' 'version' 'h/help'
            case 'remove'
                __authcat_parse_subcommand 1 'home=' 'version' 'h/help'
            end
        case 'export'
            __authcat_parse_subcommand 0 'home=' 'format=' 'encrypt' 'output=' 'force' 'stdout' 'qr' 'version' 'h/help'
        case 'backup'
            __authcat_parse_subcommand 0 'home=' 'output=' 'output-dir=' 'keep=' 'force' 'with-history' 'verify=' 'kdf=' 'json' 'version' 'h/help'
        case 'restore-backup'
            __authcat_parse_subcommand 1 'home=' 'dry-run' 'json' 'verbose' 'version' 'h/help'
        case 'sync'
            __authcat_parse_subcommand 0 'version' 'h/help'
            switch $unparsed_tokens[1]
            case 'enable'
                __authcat_parse_subcommand 0 'home=' 'remote=' 'recovery-key-file=' 'use-recovery-key' 'allow-http' 'join-different-vault' 'device-name=' 'version' 'h/help'
            case 'disable'
                __authcat_parse_subcommand 0 'home=' 'everywhere' 'delete-remote' 'y/yes' 'version' 'h/help'
            case 'now'
                __authcat_parse_subcommand 0 'home=' 'json' 'version' 'h/help'
            case 'compact'
                __authcat_parse_subcommand 0 'home=' 'json' 'version' 'h/help'
            case 'watch'
                __authcat_parse_subcommand 0 'home=' 'interval=' 'version' 'h/help'
            case 'status'
                __authcat_parse_subcommand 0 'home=' 'json' 'offline' 'short' 'version' 'h/help'
            case 'devices'
                __authcat_parse_subcommand 0 'version' 'h/help'
                switch $unparsed_tokens[1]
                case 'list'
                    __authcat_parse_subcommand 1 'home=' 'json' 'version' 'h/help'
                case 'rename'
                    __authcat_parse_subcommand 1 'home=' 'version' 'h/help'
                end
            case 'passphrase'
                __authcat_parse_subcommand 0 'version' 'h/help'
                switch $unparsed_tokens[1]
                case 'change'
                    __authcat_parse_subcommand 0 'home=' 'new-recovery-key' 'use-recovery-key' 'recovery-key-file=' 'revoke=+' 'keep-joined' 'json' 'version' 'h/help'
                end
            case 'rotate'
                __authcat_parse_subcommand 0 'home=' 'revoke=+' 'y/yes' 'use-recovery-key' 'recovery-key-file=' 'json' 'version' 'h/help'
            end
        case 'doctor'
            __authcat_parse_subcommand 0 'home=' 'server=' 'timeout=' 'no-clock' 'json' 'version' 'h/help'
        case 'help'
            __authcat_parse_subcommand -r 1 'version'
        end
    end
end

function __authcat_tokens
    if test (string split -m 1 -f 1 -- . "$FISH_VERSION") -gt 3
        commandline --tokens-raw $argv
    else
        commandline -o $argv
    end
end

function __authcat_parse_subcommand -S -a positional_count
    argparse -s r -- $argv
    set -l option_specs $argv[2..]
    set -l is_repeating_positional $_flag_r
    set -el _flag_r
    set -a commands $unparsed_tokens[1]
    set positional_index 0
    while true
        set -e unparsed_tokens[1]
        argparse -sn "$commands" $option_specs -- $unparsed_tokens 2> /dev/null
        set unparsed_tokens $argv
        set positional_index (math $positional_index + 1)
        for non_repeating_flag_or_option in $non_repeating_flags_or_options
            if set -ql "_flag_$(string replace -a - _ -- $non_repeating_flag_or_option)"
                set non_repeating_flags_or_options_absent 1
                break
            end
        end
        test (count $unparsed_tokens) -eq 0 -o \( -z "$is_repeating_positional" -a "$positional_index" -gt "$positional_count" \) && break
    end
end

function __authcat_complete_directories
    set -l token (commandline -t)
    string match -- '*/' $token
    set -l subdirs $token*/
    printf %s\n $subdirs
end

function __authcat_custom_completion
    set -x SAP_SHELL fish
    set -x SAP_SHELL_VERSION $FISH_VERSION
    set -l tokens (__authcat_tokens -p)
    if test -z "$(__authcat_tokens -t)"
        set -l index (count (__authcat_tokens -pc))
        set tokens $tokens[..$index] \'\' $tokens[(math $index + 1)..]
    end
    command $tokens[1] $argv $tokens
end

complete -c 'authcat' -f
complete -c 'authcat' -n '__authcat_should_offer_completions_for_flags_or_options "authcat" home' -l 'home' -d 'The vault folder (default: $AUTHCAT_HOME, else $XDG_DATA_HOME/authcat if absolute, else ~/.local/share/authcat).' -rfa '(__authcat_complete_directories)'
complete -c 'authcat' -n '__authcat_should_offer_completions_for_flags_or_options "authcat" version' -l 'version' -d 'Show the version.'
complete -c 'authcat' -n '__authcat_should_offer_completions_for_flags_or_options "authcat" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'authcat' -n '__authcat_should_offer_completions_for_positional "authcat" -eq 1' -fa 'add' -d 'Add an account; its secret is read from standard input or typed.'
complete -c 'authcat' -n '__authcat_should_offer_completions_for_positional "authcat" -eq 1' -fa 'code' -d 'Print the current code of an account, or of every account.'
complete -c 'authcat' -n '__authcat_should_offer_completions_for_positional "authcat" -eq 1' -fa 'pick' -d 'Choose an account in a menu and copy, type or print its code.'
complete -c 'authcat' -n '__authcat_should_offer_completions_for_positional "authcat" -eq 1' -fa 'list' -d 'List the accounts in the vault, without their secrets.'
complete -c 'authcat' -n '__authcat_should_offer_completions_for_positional "authcat" -eq 1' -fa 'show' -d 'Show the details of one account; with --uri, its otpauth URI, secret included.'
complete -c 'authcat' -n '__authcat_should_offer_completions_for_positional "authcat" -eq 1' -fa 'edit' -d 'Change an account\'s issuer, name, tags or note.'
complete -c 'authcat' -n '__authcat_should_offer_completions_for_positional "authcat" -eq 1' -fa 'rm' -d 'Remove an account (restore brings it back).'
complete -c 'authcat' -n '__authcat_should_offer_completions_for_positional "authcat" -eq 1' -fa 'restore' -d 'Bring back a removed account, secret included.'
complete -c 'authcat' -n '__authcat_should_offer_completions_for_positional "authcat" -eq 1' -fa 'history' -d 'Show the vault\'s change history, newest first.'
complete -c 'authcat' -n '__authcat_should_offer_completions_for_positional "authcat" -eq 1' -fa 'passphrase' -d 'Protect the vault key with a passphrase, change it, or remove it.'
complete -c 'authcat' -n '__authcat_should_offer_completions_for_positional "authcat" -eq 1' -fa 'unlock' -d 'Ask for the passphrase once and keep the vault unlocked for a while.'
complete -c 'authcat' -n '__authcat_should_offer_completions_for_positional "authcat" -eq 1' -fa 'lock' -d 'Forget the vault key that \'authcat unlock\' kept.'
complete -c 'authcat' -n '__authcat_should_offer_completions_for_positional "authcat" -eq 1' -fa 'config' -d 'Show and change settings.'
complete -c 'authcat' -n '__authcat_should_offer_completions_for_positional "authcat" -eq 1' -fa 'import' -d 'Import accounts from another app\'s export, an authcat backup, or QR codes in a screenshot.'
complete -c 'authcat' -n '__authcat_should_offer_completions_for_positional "authcat" -eq 1' -fa 'follow' -d 'Keep the vault in step with a backup file another app keeps writing.'
complete -c 'authcat' -n '__authcat_should_offer_completions_for_positional "authcat" -eq 1' -fa 'export' -d 'Export every account, secrets included, to move to another authenticator.'
complete -c 'authcat' -n '__authcat_should_offer_completions_for_positional "authcat" -eq 1' -fa 'backup' -d 'Write an encrypted backup of the vault, or check one with --verify.'
complete -c 'authcat' -n '__authcat_should_offer_completions_for_positional "authcat" -eq 1' -fa 'restore-backup' -d 'Restore the accounts and synced preferences of an authcat backup.'
complete -c 'authcat' -n '__authcat_should_offer_completions_for_positional "authcat" -eq 1' -fa 'sync' -d 'Mirror the vault to storage you own, end-to-end encrypted (off until enabled).'
complete -c 'authcat' -n '__authcat_should_offer_completions_for_positional "authcat" -eq 1' -fa 'doctor' -d 'Check what would make codes fail or secrets leak.'
complete -c 'authcat' -n '__authcat_should_offer_completions_for_positional "authcat" -eq 1' -fa 'help' -d 'Show subcommand help information.'
complete -c 'authcat' -n '__authcat_should_offer_completions_for_flags_or_options "authcat add" home' -l 'home' -d 'The vault folder (default: $AUTHCAT_HOME, else $XDG_DATA_HOME/authcat if absolute, else ~/.local/share/authcat).' -rfa '(__authcat_complete_directories)'
complete -c 'authcat' -n '__authcat_should_offer_completions_for_flags_or_options "authcat add" issuer' -l 'issuer' -d 'Who issued the secret, such as GitHub.' -rfka ''
complete -c 'authcat' -n '__authcat_should_offer_completions_for_flags_or_options "authcat add" type' -l 'type' -d 'The kind of code; totp when left out.' -rfka 'totp hotp steam yandex motp'
complete -c 'authcat' -n '__authcat_should_offer_completions_for_flags_or_options "authcat add" algorithm' -l 'algorithm' -d 'The HMAC hash function; sha1 when left out.' -rfka 'sha1 sha256 sha512'
complete -c 'authcat' -n '__authcat_should_offer_completions_for_flags_or_options "authcat add" digits' -l 'digits' -d 'Digits per code, 6 to 10 (default 6; Steam codes have 5 characters).' -rfka ''
complete -c 'authcat' -n '__authcat_should_offer_completions_for_flags_or_options "authcat add" period' -l 'period' -d 'Seconds per TOTP code (default 30).' -rfka ''
complete -c 'authcat' -n '__authcat_should_offer_completions_for_flags_or_options "authcat add" counter' -l 'counter' -d 'The next HOTP counter value (default 0).' -rfka ''
complete -c 'authcat' -n '__authcat_should_offer_completions_for_flags_or_options "authcat add"' -l 'tag' -d 'A tag; repeat for several.' -rfka ''
complete -c 'authcat' -n '__authcat_should_offer_completions_for_flags_or_options "authcat add" note' -l 'note' -d 'A free-form note.' -rfka ''
complete -c 'authcat' -n '__authcat_should_offer_completions_for_flags_or_options "authcat add" uri' -l 'uri' -d 'Read an otpauth:// URI from standard input instead of a secret.'
complete -c 'authcat' -n '__authcat_should_offer_completions_for_flags_or_options "authcat add" version' -l 'version' -d 'Show the version.'
complete -c 'authcat' -n '__authcat_should_offer_completions_for_flags_or_options "authcat add" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'authcat' -n '__authcat_should_offer_completions_for_flags_or_options "authcat code" home' -l 'home' -d 'The vault folder (default: $AUTHCAT_HOME, else $XDG_DATA_HOME/authcat if absolute, else ~/.local/share/authcat).' -rfa '(__authcat_complete_directories)'
complete -c 'authcat' -n '__authcat_should_offer_completions_for_positional "authcat code" -eq 1' -fka '(__authcat_custom_completion ---completion code -- positional@0 (count (__authcat_tokens -pc)) (__authcat_tokens -tC))'
complete -c 'authcat' -n '__authcat_should_offer_completions_for_flags_or_options "authcat code" at' -l 'at' -d 'Compute time-based codes at this time (seconds since 1970, not before) instead of now.' -rfka ''
complete -c 'authcat' -n '__authcat_should_offer_completions_for_flags_or_options "authcat code" json' -l 'json' -d 'Print JSON: an object with id, issuer, name, code, type, period and valid_until; an array without QUERY.'
complete -c 'authcat' -n '__authcat_should_offer_completions_for_flags_or_options "authcat code" copy' -l 'copy' -d 'Also copy the code to the clipboard (with wl-copy, xclip or xsel), and clear it when the code expires.'
complete -c 'authcat' -n '__authcat_should_offer_completions_for_flags_or_options "authcat code" keep' -l 'keep' -d 'With --copy: leave the code on the clipboard.'
complete -c 'authcat' -n '__authcat_should_offer_completions_for_flags_or_options "authcat code" type' -l 'type' -d 'Type the code into the focused window (with wtype, xdotool or ydotool) instead of printing it.'
complete -c 'authcat' -n '__authcat_should_offer_completions_for_flags_or_options "authcat code" type-enter' -l 'type-enter' -d 'With --type: press Enter after the code.'
complete -c 'authcat' -n '__authcat_should_offer_completions_for_flags_or_options "authcat code" watch' -l 'watch' -d 'Show a live table of codes with their countdowns until q or Ctrl-C (a terminal only).'
complete -c 'authcat' -n '__authcat_should_offer_completions_for_flags_or_options "authcat code" version' -l 'version' -d 'Show the version.'
complete -c 'authcat' -n '__authcat_should_offer_completions_for_flags_or_options "authcat code" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'authcat' -n '__authcat_should_offer_completions_for_flags_or_options "authcat pick" home' -l 'home' -d 'The vault folder (default: $AUTHCAT_HOME, else $XDG_DATA_HOME/authcat if absolute, else ~/.local/share/authcat).' -rfa '(__authcat_complete_directories)'
complete -c 'authcat' -n '__authcat_should_offer_completions_for_positional "authcat pick" -eq 1' -fka '(__authcat_custom_completion ---completion pick -- positional@0 (count (__authcat_tokens -pc)) (__authcat_tokens -tC))'
complete -c 'authcat' -n '__authcat_should_offer_completions_for_flags_or_options "authcat pick" copy' -l 'copy' -d 'Copy the code to the clipboard, and clear it when the code expires.'
complete -c 'authcat' -n '__authcat_should_offer_completions_for_flags_or_options "authcat pick" type' -l 'type' -d 'Type the code into the focused window.'
complete -c 'authcat' -n '__authcat_should_offer_completions_for_flags_or_options "authcat pick" print' -l 'print' -d 'Print the code on standard output.'
complete -c 'authcat' -n '__authcat_should_offer_completions_for_flags_or_options "authcat pick" type-enter' -l 'type-enter' -d 'With --type: press Enter after the code.'
complete -c 'authcat' -n '__authcat_should_offer_completions_for_flags_or_options "authcat pick" keep' -l 'keep' -d 'With --copy: leave the code on the clipboard.'
complete -c 'authcat' -n '__authcat_should_offer_completions_for_flags_or_options "authcat pick" menu' -l 'menu' -d 'The menu program to use.' -rfka 'fzf rofi wofi fuzzel bemenu dmenu'
complete -c 'authcat' -n '__authcat_should_offer_completions_for_flags_or_options "authcat pick" menu-command' -l 'menu-command' -d 'A dmenu-compatible command line to use as the menu, run with sh.' -rfka ''
complete -c 'authcat' -n '__authcat_should_offer_completions_for_flags_or_options "authcat pick" version' -l 'version' -d 'Show the version.'
complete -c 'authcat' -n '__authcat_should_offer_completions_for_flags_or_options "authcat pick" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'authcat' -n '__authcat_should_offer_completions_for_flags_or_options "authcat list" home' -l 'home' -d 'The vault folder (default: $AUTHCAT_HOME, else $XDG_DATA_HOME/authcat if absolute, else ~/.local/share/authcat).' -rfa '(__authcat_complete_directories)'
complete -c 'authcat' -n '__authcat_should_offer_completions_for_flags_or_options "authcat list" json' -l 'json' -d 'Print a JSON array.'
complete -c 'authcat' -n '__authcat_should_offer_completions_for_flags_or_options "authcat list"' -l 'tag' -d 'Only accounts with this tag; repeat for several.' -rfka '(__authcat_custom_completion ---completion list -- --tag (count (__authcat_tokens -pc)) (__authcat_tokens -tC))'
complete -c 'authcat' -n '__authcat_should_offer_completions_for_flags_or_options "authcat list" removed' -l 'removed' -d 'List the removed accounts, which \'authcat restore\' can bring back.'
complete -c 'authcat' -n '__authcat_should_offer_completions_for_flags_or_options "authcat list" version' -l 'version' -d 'Show the version.'
complete -c 'authcat' -n '__authcat_should_offer_completions_for_flags_or_options "authcat list" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'authcat' -n '__authcat_should_offer_completions_for_flags_or_options "authcat show" home' -l 'home' -d 'The vault folder (default: $AUTHCAT_HOME, else $XDG_DATA_HOME/authcat if absolute, else ~/.local/share/authcat).' -rfa '(__authcat_complete_directories)'
complete -c 'authcat' -n '__authcat_should_offer_completions_for_positional "authcat show" -eq 1' -fka '(__authcat_custom_completion ---completion show -- positional@0 (count (__authcat_tokens -pc)) (__authcat_tokens -tC))'
complete -c 'authcat' -n '__authcat_should_offer_completions_for_flags_or_options "authcat show" uri' -l 'uri' -d 'Print the otpauth:// URI, which includes the secret.'
complete -c 'authcat' -n '__authcat_should_offer_completions_for_flags_or_options "authcat show" qr' -l 'qr' -d 'Draw the otpauth:// URI as a QR code in the terminal, to scan with a phone.'
complete -c 'authcat' -n '__authcat_should_offer_completions_for_flags_or_options "authcat show" json' -l 'json' -d 'Print the details as a JSON object (never the secret).'
complete -c 'authcat' -n '__authcat_should_offer_completions_for_flags_or_options "authcat show" version' -l 'version' -d 'Show the version.'
complete -c 'authcat' -n '__authcat_should_offer_completions_for_flags_or_options "authcat show" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'authcat' -n '__authcat_should_offer_completions_for_flags_or_options "authcat edit" home' -l 'home' -d 'The vault folder (default: $AUTHCAT_HOME, else $XDG_DATA_HOME/authcat if absolute, else ~/.local/share/authcat).' -rfa '(__authcat_complete_directories)'
complete -c 'authcat' -n '__authcat_should_offer_completions_for_positional "authcat edit" -eq 1' -fka '(__authcat_custom_completion ---completion edit -- positional@0 (count (__authcat_tokens -pc)) (__authcat_tokens -tC))'
complete -c 'authcat' -n '__authcat_should_offer_completions_for_flags_or_options "authcat edit" issuer' -l 'issuer' -d 'The new issuer ("" for none).' -rfka ''
complete -c 'authcat' -n '__authcat_should_offer_completions_for_flags_or_options "authcat edit" name' -l 'name' -d 'The new account name.' -rfka ''
complete -c 'authcat' -n '__authcat_should_offer_completions_for_flags_or_options "authcat edit"' -l 'tag' -d 'Add a tag; repeat for several.' -rfka '(__authcat_custom_completion ---completion edit -- --tag (count (__authcat_tokens -pc)) (__authcat_tokens -tC))'
complete -c 'authcat' -n '__authcat_should_offer_completions_for_flags_or_options "authcat edit"' -l 'untag' -d 'Remove a tag; repeat for several.' -rfka '(__authcat_custom_completion ---completion edit -- --untag (count (__authcat_tokens -pc)) (__authcat_tokens -tC))'
complete -c 'authcat' -n '__authcat_should_offer_completions_for_flags_or_options "authcat edit" clear-tags' -l 'clear-tags' -d 'Remove every tag (before adding those given with --tag).'
complete -c 'authcat' -n '__authcat_should_offer_completions_for_flags_or_options "authcat edit" note' -l 'note' -d 'The new note ("" for none).' -rfka ''
complete -c 'authcat' -n '__authcat_should_offer_completions_for_flags_or_options "authcat edit" version' -l 'version' -d 'Show the version.'
complete -c 'authcat' -n '__authcat_should_offer_completions_for_flags_or_options "authcat edit" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'authcat' -n '__authcat_should_offer_completions_for_flags_or_options "authcat rm" home' -l 'home' -d 'The vault folder (default: $AUTHCAT_HOME, else $XDG_DATA_HOME/authcat if absolute, else ~/.local/share/authcat).' -rfa '(__authcat_complete_directories)'
complete -c 'authcat' -n '__authcat_should_offer_completions_for_positional "authcat rm" -eq 1' -fka '(__authcat_custom_completion ---completion rm -- positional@0 (count (__authcat_tokens -pc)) (__authcat_tokens -tC))'
complete -c 'authcat' -n '__authcat_should_offer_completions_for_flags_or_options "authcat rm" y yes' -s 'y' -l 'yes' -d 'Remove without asking.'
complete -c 'authcat' -n '__authcat_should_offer_completions_for_flags_or_options "authcat rm" version' -l 'version' -d 'Show the version.'
complete -c 'authcat' -n '__authcat_should_offer_completions_for_flags_or_options "authcat rm" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'authcat' -n '__authcat_should_offer_completions_for_flags_or_options "authcat restore" home' -l 'home' -d 'The vault folder (default: $AUTHCAT_HOME, else $XDG_DATA_HOME/authcat if absolute, else ~/.local/share/authcat).' -rfa '(__authcat_complete_directories)'
complete -c 'authcat' -n '__authcat_should_offer_completions_for_positional "authcat restore" -eq 1' -fka '(__authcat_custom_completion ---completion restore -- positional@0 (count (__authcat_tokens -pc)) (__authcat_tokens -tC))'
complete -c 'authcat' -n '__authcat_should_offer_completions_for_flags_or_options "authcat restore" version' -l 'version' -d 'Show the version.'
complete -c 'authcat' -n '__authcat_should_offer_completions_for_flags_or_options "authcat restore" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'authcat' -n '__authcat_should_offer_completions_for_flags_or_options "authcat history" home' -l 'home' -d 'The vault folder (default: $AUTHCAT_HOME, else $XDG_DATA_HOME/authcat if absolute, else ~/.local/share/authcat).' -rfa '(__authcat_complete_directories)'
complete -c 'authcat' -n '__authcat_should_offer_completions_for_positional "authcat history" -eq 1' -fka '(__authcat_custom_completion ---completion history -- positional@0 (count (__authcat_tokens -pc)) (__authcat_tokens -tC))'
complete -c 'authcat' -n '__authcat_should_offer_completions_for_flags_or_options "authcat history" json' -l 'json' -d 'Print a JSON array.'
complete -c 'authcat' -n '__authcat_should_offer_completions_for_flags_or_options "authcat history" limit' -l 'limit' -d 'Show at most this many transactions (0: all; default 20, or the setting history.limit).' -rfka ''
complete -c 'authcat' -n '__authcat_should_offer_completions_for_flags_or_options "authcat history" all-changes' -l 'all-changes' -d 'Show every change of each transaction, not only the first 20.'
complete -c 'authcat' -n '__authcat_should_offer_completions_for_flags_or_options "authcat history" version' -l 'version' -d 'Show the version.'
complete -c 'authcat' -n '__authcat_should_offer_completions_for_flags_or_options "authcat history" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'authcat' -n '__authcat_should_offer_completions_for_flags_or_options "authcat passphrase" version' -l 'version' -d 'Show the version.'
complete -c 'authcat' -n '__authcat_should_offer_completions_for_flags_or_options "authcat passphrase" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'authcat' -n '__authcat_should_offer_completions_for_positional "authcat passphrase" -eq 1' -fa 'set' -d 'Wrap the vault key with a new passphrase.'
complete -c 'authcat' -n '__authcat_should_offer_completions_for_positional "authcat passphrase" -eq 1' -fa 'change' -d 'Wrap the vault key with a different passphrase.'
complete -c 'authcat' -n '__authcat_should_offer_completions_for_positional "authcat passphrase" -eq 1' -fa 'remove' -d 'Store the vault key without a passphrase again.'
complete -c 'authcat' -n '__authcat_should_offer_completions_for_flags_or_options "authcat passphrase set" home' -l 'home' -d 'The vault folder (default: $AUTHCAT_HOME, else $XDG_DATA_HOME/authcat if absolute, else ~/.local/share/authcat).' -rfa '(__authcat_complete_directories)'
complete -c 'authcat' -n '__authcat_should_offer_completions_for_flags_or_options "authcat passphrase set" version' -l 'version' -d 'Show the version.'
complete -c 'authcat' -n '__authcat_should_offer_completions_for_flags_or_options "authcat passphrase set" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'authcat' -n '__authcat_should_offer_completions_for_flags_or_options "authcat passphrase change" home' -l 'home' -d 'The vault folder (default: $AUTHCAT_HOME, else $XDG_DATA_HOME/authcat if absolute, else ~/.local/share/authcat).' -rfa '(__authcat_complete_directories)'
complete -c 'authcat' -n '__authcat_should_offer_completions_for_flags_or_options "authcat passphrase change" version' -l 'version' -d 'Show the version.'
complete -c 'authcat' -n '__authcat_should_offer_completions_for_flags_or_options "authcat passphrase change" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'authcat' -n '__authcat_should_offer_completions_for_flags_or_options "authcat passphrase remove" home' -l 'home' -d 'The vault folder (default: $AUTHCAT_HOME, else $XDG_DATA_HOME/authcat if absolute, else ~/.local/share/authcat).' -rfa '(__authcat_complete_directories)'
complete -c 'authcat' -n '__authcat_should_offer_completions_for_flags_or_options "authcat passphrase remove" version' -l 'version' -d 'Show the version.'
complete -c 'authcat' -n '__authcat_should_offer_completions_for_flags_or_options "authcat passphrase remove" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'authcat' -n '__authcat_should_offer_completions_for_flags_or_options "authcat unlock" home' -l 'home' -d 'The vault folder (default: $AUTHCAT_HOME, else $XDG_DATA_HOME/authcat if absolute, else ~/.local/share/authcat).' -rfa '(__authcat_complete_directories)'
complete -c 'authcat' -n '__authcat_should_offer_completions_for_flags_or_options "authcat unlock" for' -l 'for' -d 'How long: a number with s, m, h or d (90s, 15m, 8h, 7d), up to 30d.' -rfka ''
complete -c 'authcat' -n '__authcat_should_offer_completions_for_flags_or_options "authcat unlock" status' -l 'status' -d 'Only say whether the vault is unlocked, and until when.'
complete -c 'authcat' -n '__authcat_should_offer_completions_for_flags_or_options "authcat unlock" json' -l 'json' -d 'With --status: print JSON.'
complete -c 'authcat' -n '__authcat_should_offer_completions_for_flags_or_options "authcat unlock" version' -l 'version' -d 'Show the version.'
complete -c 'authcat' -n '__authcat_should_offer_completions_for_flags_or_options "authcat unlock" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'authcat' -n '__authcat_should_offer_completions_for_flags_or_options "authcat lock" home' -l 'home' -d 'The vault folder (default: $AUTHCAT_HOME, else $XDG_DATA_HOME/authcat if absolute, else ~/.local/share/authcat).' -rfa '(__authcat_complete_directories)'
complete -c 'authcat' -n '__authcat_should_offer_completions_for_flags_or_options "authcat lock" version' -l 'version' -d 'Show the version.'
complete -c 'authcat' -n '__authcat_should_offer_completions_for_flags_or_options "authcat lock" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'authcat' -n '__authcat_should_offer_completions_for_flags_or_options "authcat config" version' -l 'version' -d 'Show the version.'
complete -c 'authcat' -n '__authcat_should_offer_completions_for_flags_or_options "authcat config" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'authcat' -n '__authcat_should_offer_completions_for_positional "authcat config" -eq 1' -fa 'get' -d 'Print the value of a setting; exit 1 if it is not set.'
complete -c 'authcat' -n '__authcat_should_offer_completions_for_positional "authcat config" -eq 1' -fa 'set' -d 'Set a setting; synced preferences over quota are refused.'
complete -c 'authcat' -n '__authcat_should_offer_completions_for_positional "authcat config" -eq 1' -fa 'unset' -d 'Remove a setting; removing one that is not set does nothing.'
complete -c 'authcat' -n '__authcat_should_offer_completions_for_positional "authcat config" -eq 1' -fa 'list' -d 'List settings as key=value lines, sorted by key.'
complete -c 'authcat' -n '__authcat_should_offer_completions_for_flags_or_options "authcat config get" home' -l 'home' -d 'The vault folder (default: $AUTHCAT_HOME, else $XDG_DATA_HOME/authcat if absolute, else ~/.local/share/authcat).' -rfa '(__authcat_complete_directories)'
complete -c 'authcat' -n '__authcat_should_offer_completions_for_flags_or_options "authcat config get" synced' -l 'synced' -d 'Use the synced preferences instead of this device\'s local settings.'
complete -c 'authcat' -n '__authcat_should_offer_completions_for_flags_or_options "authcat config get" json' -l 'json' -d 'Print a JSON object with key, value and synced.'
complete -c 'authcat' -n '__authcat_should_offer_completions_for_flags_or_options "authcat config get" version' -l 'version' -d 'Show the version.'
complete -c 'authcat' -n '__authcat_should_offer_completions_for_flags_or_options "authcat config get" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'authcat' -n '__authcat_should_offer_completions_for_flags_or_options "authcat config set" home' -l 'home' -d 'The vault folder (default: $AUTHCAT_HOME, else $XDG_DATA_HOME/authcat if absolute, else ~/.local/share/authcat).' -rfa '(__authcat_complete_directories)'
complete -c 'authcat' -n '__authcat_should_offer_completions_for_flags_or_options "authcat config set" synced' -l 'synced' -d 'Use the synced preferences instead of this device\'s local settings.'
complete -c 'authcat' -n '__authcat_should_offer_completions_for_flags_or_options "authcat config set" version' -l 'version' -d 'Show the version.'
complete -c 'authcat' -n '__authcat_should_offer_completions_for_flags_or_options "authcat config set" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'authcat' -n '__authcat_should_offer_completions_for_flags_or_options "authcat config unset" home' -l 'home' -d 'The vault folder (default: $AUTHCAT_HOME, else $XDG_DATA_HOME/authcat if absolute, else ~/.local/share/authcat).' -rfa '(__authcat_complete_directories)'
complete -c 'authcat' -n '__authcat_should_offer_completions_for_flags_or_options "authcat config unset" synced' -l 'synced' -d 'Use the synced preferences instead of this device\'s local settings.'
complete -c 'authcat' -n '__authcat_should_offer_completions_for_flags_or_options "authcat config unset" version' -l 'version' -d 'Show the version.'
complete -c 'authcat' -n '__authcat_should_offer_completions_for_flags_or_options "authcat config unset" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'authcat' -n '__authcat_should_offer_completions_for_flags_or_options "authcat config list" home' -l 'home' -d 'The vault folder (default: $AUTHCAT_HOME, else $XDG_DATA_HOME/authcat if absolute, else ~/.local/share/authcat).' -rfa '(__authcat_complete_directories)'
complete -c 'authcat' -n '__authcat_should_offer_completions_for_flags_or_options "authcat config list" synced' -l 'synced' -d 'Use the synced preferences instead of this device\'s local settings.'
complete -c 'authcat' -n '__authcat_should_offer_completions_for_flags_or_options "authcat config list" json' -l 'json' -d 'Print one JSON object of keys and values.'
complete -c 'authcat' -n '__authcat_should_offer_completions_for_flags_or_options "authcat config list" version' -l 'version' -d 'Show the version.'
complete -c 'authcat' -n '__authcat_should_offer_completions_for_flags_or_options "authcat config list" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'authcat' -n '__authcat_should_offer_completions_for_flags_or_options "authcat import" home' -l 'home' -d 'The vault folder (default: $AUTHCAT_HOME, else $XDG_DATA_HOME/authcat if absolute, else ~/.local/share/authcat).' -rfa '(__authcat_complete_directories)'
complete -c 'authcat' -n '__authcat_should_offer_completions_for_positional "authcat import" -eq 1' -F
complete -c 'authcat' -n '__authcat_should_offer_completions_for_flags_or_options "authcat import" format' -l 'format' -d 'A format listed above (default: recognised from the content).' -rfka 'otpauth google aegis 2fas andotp bitwarden authcat stratum ente freeotp freeotp-plus steam authy battlenet duo proton google-db microsoft pass keepassxc 1password protonpass keepass-xml totp-authenticator lastpass'
complete -c 'authcat' -n '__authcat_should_offer_completions_for_flags_or_options "authcat import" qr' -l 'qr' -d 'FILE is a PNG image: import the QR codes in it.'
complete -c 'authcat' -n '__authcat_should_offer_completions_for_flags_or_options "authcat import" dry-run' -l 'dry-run' -d 'Show what would be imported without changing the vault.'
complete -c 'authcat' -n '__authcat_should_offer_completions_for_flags_or_options "authcat import" skip-invalid' -l 'skip-invalid' -d 'Import the valid entries even when some are malformed.'
complete -c 'authcat' -n '__authcat_should_offer_completions_for_flags_or_options "authcat import" json' -l 'json' -d 'Print the summary and every entry as JSON.'
complete -c 'authcat' -n '__authcat_should_offer_completions_for_flags_or_options "authcat import" verbose' -l 'verbose' -d 'List each entry skipped (and with --dry-run, each to add), not only their number.'
complete -c 'authcat' -n '__authcat_should_offer_completions_for_flags_or_options "authcat import" version' -l 'version' -d 'Show the version.'
complete -c 'authcat' -n '__authcat_should_offer_completions_for_flags_or_options "authcat import" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'authcat' -n '__authcat_should_offer_completions_for_flags_or_options "authcat follow" version' -l 'version' -d 'Show the version.'
complete -c 'authcat' -n '__authcat_should_offer_completions_for_flags_or_options "authcat follow" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'authcat' -n '__authcat_should_offer_completions_for_positional "authcat follow" -eq 1' -fa 'add' -d 'Import a file now, and follow what changes in it.'
complete -c 'authcat' -n '__authcat_should_offer_completions_for_positional "authcat follow" -eq 1' -fa 'now' -d 'Apply what changed in every followed file.'
complete -c 'authcat' -n '__authcat_should_offer_completions_for_positional "authcat follow" -eq 1' -fa 'list' -d 'List the followed files.'
complete -c 'authcat' -n '__authcat_should_offer_completions_for_positional "authcat follow" -eq 1' -fa 'remove' -d 'Stop following a file; the accounts it brought stay.'
complete -c 'authcat' -n '__authcat_should_offer_completions_for_flags_or_options "authcat follow add" home' -l 'home' -d 'The vault folder (default: $AUTHCAT_HOME, else $XDG_DATA_HOME/authcat if absolute, else ~/.local/share/authcat).' -rfa '(__authcat_complete_directories)'
complete -c 'authcat' -n '__authcat_should_offer_completions_for_positional "authcat follow add" -eq 1' -F
complete -c 'authcat' -n '__authcat_should_offer_completions_for_flags_or_options "authcat follow add" format' -l 'format' -d 'The file\'s format, as \'authcat import\' names it (default: recognised from the content).' -rfka 'otpauth google aegis 2fas andotp bitwarden authcat stratum ente freeotp freeotp-plus steam authy battlenet duo proton google-db microsoft pass keepassxc 1password protonpass keepass-xml totp-authenticator lastpass'
complete -c 'authcat' -n '__authcat_should_offer_completions_for_flags_or_options "authcat follow add" name' -l 'name' -d 'What to call the file: history\'s author follow:NAME (default: the file\'s name).' -rfka ''
complete -c 'authcat' -n '__authcat_should_offer_completions_for_flags_or_options "authcat follow add" json' -l 'json' -d 'Print what was done as JSON.'
complete -c 'authcat' -n '__authcat_should_offer_completions_for_flags_or_options "authcat follow add" version' -l 'version' -d 'Show the version.'
complete -c 'authcat' -n '__authcat_should_offer_completions_for_flags_or_options "authcat follow add" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'authcat' -n '__authcat_should_offer_completions_for_flags_or_options "authcat follow now" home' -l 'home' -d 'The vault folder (default: $AUTHCAT_HOME, else $XDG_DATA_HOME/authcat if absolute, else ~/.local/share/authcat).' -rfa '(__authcat_complete_directories)'
complete -c 'authcat' -n '__authcat_should_offer_completions_for_flags_or_options "authcat follow now" json' -l 'json' -d 'Print what was done as JSON: one object per file.'
complete -c 'authcat' -n '__authcat_should_offer_completions_for_flags_or_options "authcat follow now" watch' -l 'watch' -d 'Keep running, and apply each change as soon as a file is written.'
complete -c 'authcat' -n '__authcat_should_offer_completions_for_flags_or_options "authcat follow now" version' -l 'version' -d 'Show the version.'
complete -c 'authcat' -n '__authcat_should_offer_completions_for_flags_or_options "authcat follow now" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'authcat' -n '__authcat_should_offer_completions_for_flags_or_options "authcat follow list" home' -l 'home' -d 'The vault folder (default: $AUTHCAT_HOME, else $XDG_DATA_HOME/authcat if absolute, else ~/.local/share/authcat).' -rfa '(__authcat_complete_directories)'
complete -c 'authcat' -n '__authcat_should_offer_completions_for_flags_or_options "authcat follow list" json' -l 'json' -d 'Print the list as JSON.'
complete -c 'authcat' -n '__authcat_should_offer_completions_for_flags_or_options "authcat follow list" version' -l 'version' -d 'Show the version.'
complete -c 'authcat' -n '__authcat_should_offer_completions_for_flags_or_options "authcat follow list" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'authcat' -n '__authcat_should_offer_completions_for_flags_or_options "authcat follow remove" home' -l 'home' -d 'The vault folder (default: $AUTHCAT_HOME, else $XDG_DATA_HOME/authcat if absolute, else ~/.local/share/authcat).' -rfa '(__authcat_complete_directories)'
complete -c 'authcat' -n '__authcat_should_offer_completions_for_flags_or_options "authcat follow remove" version' -l 'version' -d 'Show the version.'
complete -c 'authcat' -n '__authcat_should_offer_completions_for_flags_or_options "authcat follow remove" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'authcat' -n '__authcat_should_offer_completions_for_flags_or_options "authcat export" home' -l 'home' -d 'The vault folder (default: $AUTHCAT_HOME, else $XDG_DATA_HOME/authcat if absolute, else ~/.local/share/authcat).' -rfa '(__authcat_complete_directories)'
complete -c 'authcat' -n '__authcat_should_offer_completions_for_flags_or_options "authcat export" format' -l 'format' -d 'otpauth, google, aegis, 2fas or json.' -rfka 'otpauth google aegis 2fas json'
complete -c 'authcat' -n '__authcat_should_offer_completions_for_flags_or_options "authcat export" encrypt' -l 'encrypt' -d 'Encrypt the export with a password (aegis only).'
complete -c 'authcat' -n '__authcat_should_offer_completions_for_flags_or_options "authcat export" output' -l 'output' -d 'The file to write (mode 0600), or a FIFO or device to write through.' -rF
complete -c 'authcat' -n '__authcat_should_offer_completions_for_flags_or_options "authcat export" force' -l 'force' -d 'Replace the --output file if it exists.'
complete -c 'authcat' -n '__authcat_should_offer_completions_for_flags_or_options "authcat export" stdout' -l 'stdout' -d 'Print the export, secrets included, on standard output.'
complete -c 'authcat' -n '__authcat_should_offer_completions_for_flags_or_options "authcat export" qr' -l 'qr' -d 'Draw each URI as a QR code in the terminal (otpauth and google).'
complete -c 'authcat' -n '__authcat_should_offer_completions_for_flags_or_options "authcat export" version' -l 'version' -d 'Show the version.'
complete -c 'authcat' -n '__authcat_should_offer_completions_for_flags_or_options "authcat export" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'authcat' -n '__authcat_should_offer_completions_for_flags_or_options "authcat backup" home' -l 'home' -d 'The vault folder (default: $AUTHCAT_HOME, else $XDG_DATA_HOME/authcat if absolute, else ~/.local/share/authcat).' -rfa '(__authcat_complete_directories)'
complete -c 'authcat' -n '__authcat_should_offer_completions_for_flags_or_options "authcat backup" output' -l 'output' -d 'The backup file, or - for standard output (default: authcat-backup-DATE.authcat here).' -rF
complete -c 'authcat' -n '__authcat_should_offer_completions_for_flags_or_options "authcat backup" output-dir' -l 'output-dir' -d 'Write a dated backup into this folder, verify it, then rotate with --keep.' -rfa '(__authcat_complete_directories)'
complete -c 'authcat' -n '__authcat_should_offer_completions_for_flags_or_options "authcat backup" keep' -l 'keep' -d 'With --output-dir: keep this many authcat backups in the folder, deleting the oldest.' -rfka ''
complete -c 'authcat' -n '__authcat_should_offer_completions_for_flags_or_options "authcat backup" force' -l 'force' -d 'Replace the backup file if it exists.'
complete -c 'authcat' -n '__authcat_should_offer_completions_for_flags_or_options "authcat backup" with-history' -l 'with-history' -d 'Include the vault\'s history.'
complete -c 'authcat' -n '__authcat_should_offer_completions_for_flags_or_options "authcat backup" verify' -l 'verify' -d 'Check that this backup decrypts and is complete, without restoring it.' -rF
complete -c 'authcat' -n '__authcat_should_offer_completions_for_flags_or_options "authcat backup" kdf' -l 'kdf' -d 'Argon2id strength: interactive, moderate or sensitive.' -rfka 'interactive moderate sensitive'
complete -c 'authcat' -n '__authcat_should_offer_completions_for_flags_or_options "authcat backup" json' -l 'json' -d 'Print a JSON summary (on standard error when the backup goes to standard output).'
complete -c 'authcat' -n '__authcat_should_offer_completions_for_flags_or_options "authcat backup" version' -l 'version' -d 'Show the version.'
complete -c 'authcat' -n '__authcat_should_offer_completions_for_flags_or_options "authcat backup" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'authcat' -n '__authcat_should_offer_completions_for_flags_or_options "authcat restore-backup" home' -l 'home' -d 'The vault folder (default: $AUTHCAT_HOME, else $XDG_DATA_HOME/authcat if absolute, else ~/.local/share/authcat).' -rfa '(__authcat_complete_directories)'
complete -c 'authcat' -n '__authcat_should_offer_completions_for_positional "authcat restore-backup" -eq 1' -F
complete -c 'authcat' -n '__authcat_should_offer_completions_for_flags_or_options "authcat restore-backup" dry-run' -l 'dry-run' -d 'Show what would be restored without changing the vault.'
complete -c 'authcat' -n '__authcat_should_offer_completions_for_flags_or_options "authcat restore-backup" json' -l 'json' -d 'Print the summary and every entry as JSON.'
complete -c 'authcat' -n '__authcat_should_offer_completions_for_flags_or_options "authcat restore-backup" verbose' -l 'verbose' -d 'List each account skipped (and with --dry-run, each to restore), not only their number.'
complete -c 'authcat' -n '__authcat_should_offer_completions_for_flags_or_options "authcat restore-backup" version' -l 'version' -d 'Show the version.'
complete -c 'authcat' -n '__authcat_should_offer_completions_for_flags_or_options "authcat restore-backup" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'authcat' -n '__authcat_should_offer_completions_for_flags_or_options "authcat sync" version' -l 'version' -d 'Show the version.'
complete -c 'authcat' -n '__authcat_should_offer_completions_for_flags_or_options "authcat sync" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'authcat' -n '__authcat_should_offer_completions_for_positional "authcat sync" -eq 1' -fa 'enable' -d 'Turn sync on: create a remote vault, or join one another device created.'
complete -c 'authcat' -n '__authcat_should_offer_completions_for_positional "authcat sync" -eq 1' -fa 'disable' -d 'Turn sync off; local data is always kept.'
complete -c 'authcat' -n '__authcat_should_offer_completions_for_positional "authcat sync" -eq 1' -fa 'now' -d 'Sync once: import other devices\' changes, then export this device\'s.'
complete -c 'authcat' -n '__authcat_should_offer_completions_for_positional "authcat sync" -eq 1' -fa 'compact' -d 'Sync once, then replace this device\'s change batches on the remote with one snapshot.'
complete -c 'authcat' -n '__authcat_should_offer_completions_for_positional "authcat sync" -eq 1' -fa 'watch' -d 'Keep syncing until stopped (Ctrl-C, SIGTERM, or sync turned off).'
complete -c 'authcat' -n '__authcat_should_offer_completions_for_positional "authcat sync" -eq 1' -fa 'status' -d 'Show whether sync works, and exit non-zero when it does not.'
complete -c 'authcat' -n '__authcat_should_offer_completions_for_positional "authcat sync" -eq 1' -fa 'devices' -d 'List the devices of the remote vault, or rename this one.'
complete -c 'authcat' -n '__authcat_should_offer_completions_for_positional "authcat sync" -eq 1' -fa 'passphrase' -d 'Change the sync passphrase (and the recovery key) of the remote vault.'
complete -c 'authcat' -n '__authcat_should_offer_completions_for_positional "authcat sync" -eq 1' -fa 'rotate' -d 'Move the remote vault to a new sync key; with --revoke, cut a lost device off.'
complete -c 'authcat' -n '__authcat_should_offer_completions_for_flags_or_options "authcat sync enable" home' -l 'home' -d 'The vault folder (default: $AUTHCAT_HOME, else $XDG_DATA_HOME/authcat if absolute, else ~/.local/share/authcat).' -rfa '(__authcat_complete_directories)'
complete -c 'authcat' -n '__authcat_should_offer_completions_for_flags_or_options "authcat sync enable" remote' -l 'remote' -d 'Where to sync: file:///path, s3://bucket/prefix, davs://user@host/path or rclone:remote:path.' -rfka ''
complete -c 'authcat' -n '__authcat_should_offer_completions_for_flags_or_options "authcat sync enable" recovery-key-file' -l 'recovery-key-file' -d 'A new file to write the recovery key to (mode 0600) when creating; the file to read it from with --use-recovery-key.' -rF
complete -c 'authcat' -n '__authcat_should_offer_completions_for_flags_or_options "authcat sync enable" use-recovery-key' -l 'use-recovery-key' -d 'Join with the recovery key instead of the sync passphrase.'
complete -c 'authcat' -n '__authcat_should_offer_completions_for_flags_or_options "authcat sync enable" allow-http' -l 'allow-http' -d 'Use an http:// S3 endpoint on another machine without asking.'
complete -c 'authcat' -n '__authcat_should_offer_completions_for_flags_or_options "authcat sync enable" join-different-vault' -l 'join-different-vault' -d 'Join the vault the remote holds now, though this device synced with a different one there.'
complete -c 'authcat' -n '__authcat_should_offer_completions_for_flags_or_options "authcat sync enable" device-name' -l 'device-name' -d 'This device\'s name on the remote (default: the host name; a suffix such as -2 when another device has it).' -rfka ''
complete -c 'authcat' -n '__authcat_should_offer_completions_for_flags_or_options "authcat sync enable" version' -l 'version' -d 'Show the version.'
complete -c 'authcat' -n '__authcat_should_offer_completions_for_flags_or_options "authcat sync enable" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'authcat' -n '__authcat_should_offer_completions_for_flags_or_options "authcat sync disable" home' -l 'home' -d 'The vault folder (default: $AUTHCAT_HOME, else $XDG_DATA_HOME/authcat if absolute, else ~/.local/share/authcat).' -rfa '(__authcat_complete_directories)'
complete -c 'authcat' -n '__authcat_should_offer_completions_for_flags_or_options "authcat sync disable" everywhere' -l 'everywhere' -d 'Turn sync off on every device.'
complete -c 'authcat' -n '__authcat_should_offer_completions_for_flags_or_options "authcat sync disable" delete-remote' -l 'delete-remote' -d 'Delete the synced data from the remote too (implies --everywhere).'
complete -c 'authcat' -n '__authcat_should_offer_completions_for_flags_or_options "authcat sync disable" y yes' -l 'yes' -s 'y' -d 'Do not ask for confirmation of --delete-remote.'
complete -c 'authcat' -n '__authcat_should_offer_completions_for_flags_or_options "authcat sync disable" version' -l 'version' -d 'Show the version.'
complete -c 'authcat' -n '__authcat_should_offer_completions_for_flags_or_options "authcat sync disable" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'authcat' -n '__authcat_should_offer_completions_for_flags_or_options "authcat sync now" home' -l 'home' -d 'The vault folder (default: $AUTHCAT_HOME, else $XDG_DATA_HOME/authcat if absolute, else ~/.local/share/authcat).' -rfa '(__authcat_complete_directories)'
complete -c 'authcat' -n '__authcat_should_offer_completions_for_flags_or_options "authcat sync now" json' -l 'json' -d 'Print the report as JSON.'
complete -c 'authcat' -n '__authcat_should_offer_completions_for_flags_or_options "authcat sync now" version' -l 'version' -d 'Show the version.'
complete -c 'authcat' -n '__authcat_should_offer_completions_for_flags_or_options "authcat sync now" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'authcat' -n '__authcat_should_offer_completions_for_flags_or_options "authcat sync compact" home' -l 'home' -d 'The vault folder (default: $AUTHCAT_HOME, else $XDG_DATA_HOME/authcat if absolute, else ~/.local/share/authcat).' -rfa '(__authcat_complete_directories)'
complete -c 'authcat' -n '__authcat_should_offer_completions_for_flags_or_options "authcat sync compact" json' -l 'json' -d 'Print the report as JSON.'
complete -c 'authcat' -n '__authcat_should_offer_completions_for_flags_or_options "authcat sync compact" version' -l 'version' -d 'Show the version.'
complete -c 'authcat' -n '__authcat_should_offer_completions_for_flags_or_options "authcat sync compact" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'authcat' -n '__authcat_should_offer_completions_for_flags_or_options "authcat sync watch" home' -l 'home' -d 'The vault folder (default: $AUTHCAT_HOME, else $XDG_DATA_HOME/authcat if absolute, else ~/.local/share/authcat).' -rfa '(__authcat_complete_directories)'
complete -c 'authcat' -n '__authcat_should_offer_completions_for_flags_or_options "authcat sync watch" interval' -l 'interval' -d 'Seconds between checks for other devices\' changes.' -rfka ''
complete -c 'authcat' -n '__authcat_should_offer_completions_for_flags_or_options "authcat sync watch" version' -l 'version' -d 'Show the version.'
complete -c 'authcat' -n '__authcat_should_offer_completions_for_flags_or_options "authcat sync watch" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'authcat' -n '__authcat_should_offer_completions_for_flags_or_options "authcat sync status" home' -l 'home' -d 'The vault folder (default: $AUTHCAT_HOME, else $XDG_DATA_HOME/authcat if absolute, else ~/.local/share/authcat).' -rfa '(__authcat_complete_directories)'
complete -c 'authcat' -n '__authcat_should_offer_completions_for_flags_or_options "authcat sync status" json' -l 'json' -d 'Print the status as JSON.'
complete -c 'authcat' -n '__authcat_should_offer_completions_for_flags_or_options "authcat sync status" offline' -l 'offline' -d 'Do not contact the remote; report only what was recorded.'
complete -c 'authcat' -n '__authcat_should_offer_completions_for_flags_or_options "authcat sync status" short' -l 'short' -d 'Print one short line for a status bar or a prompt (implies --offline).'
complete -c 'authcat' -n '__authcat_should_offer_completions_for_flags_or_options "authcat sync status" version' -l 'version' -d 'Show the version.'
complete -c 'authcat' -n '__authcat_should_offer_completions_for_flags_or_options "authcat sync status" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'authcat' -n '__authcat_should_offer_completions_for_flags_or_options "authcat sync devices" version' -l 'version' -d 'Show the version.'
complete -c 'authcat' -n '__authcat_should_offer_completions_for_flags_or_options "authcat sync devices" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'authcat' -n '__authcat_should_offer_completions_for_positional "authcat sync devices" -eq 1' -fa 'list' -d 'List the devices of the remote vault (the default).'
complete -c 'authcat' -n '__authcat_should_offer_completions_for_positional "authcat sync devices" -eq 1' -fa 'rename' -d 'Rename this device; the others show the new name after their next sync.'
complete -c 'authcat' -n '__authcat_should_offer_completions_for_flags_or_options "authcat sync devices list" home' -l 'home' -d 'The vault folder (default: $AUTHCAT_HOME, else $XDG_DATA_HOME/authcat if absolute, else ~/.local/share/authcat).' -rfa '(__authcat_complete_directories)'
complete -c 'authcat' -n '__authcat_should_offer_completions_for_flags_or_options "authcat sync devices list" json' -l 'json' -d 'Print the devices as JSON.'
complete -c 'authcat' -n '__authcat_should_offer_completions_for_flags_or_options "authcat sync devices list" version' -l 'version' -d 'Show the version.'
complete -c 'authcat' -n '__authcat_should_offer_completions_for_flags_or_options "authcat sync devices list" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'authcat' -n '__authcat_should_offer_completions_for_flags_or_options "authcat sync devices rename" home' -l 'home' -d 'The vault folder (default: $AUTHCAT_HOME, else $XDG_DATA_HOME/authcat if absolute, else ~/.local/share/authcat).' -rfa '(__authcat_complete_directories)'
complete -c 'authcat' -n '__authcat_should_offer_completions_for_flags_or_options "authcat sync devices rename" version' -l 'version' -d 'Show the version.'
complete -c 'authcat' -n '__authcat_should_offer_completions_for_flags_or_options "authcat sync devices rename" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'authcat' -n '__authcat_should_offer_completions_for_flags_or_options "authcat sync passphrase" version' -l 'version' -d 'Show the version.'
complete -c 'authcat' -n '__authcat_should_offer_completions_for_flags_or_options "authcat sync passphrase" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'authcat' -n '__authcat_should_offer_completions_for_positional "authcat sync passphrase" -eq 1' -fa 'change' -d 'Change the sync passphrase: new keys on the remote; other devices keep syncing without a question.'
complete -c 'authcat' -n '__authcat_should_offer_completions_for_flags_or_options "authcat sync passphrase change" home' -l 'home' -d 'The vault folder (default: $AUTHCAT_HOME, else $XDG_DATA_HOME/authcat if absolute, else ~/.local/share/authcat).' -rfa '(__authcat_complete_directories)'
complete -c 'authcat' -n '__authcat_should_offer_completions_for_flags_or_options "authcat sync passphrase change" new-recovery-key' -l 'new-recovery-key' -d 'Also make a new recovery key; the old one stops working.'
complete -c 'authcat' -n '__authcat_should_offer_completions_for_flags_or_options "authcat sync passphrase change" use-recovery-key' -l 'use-recovery-key' -d 'Prove the right to change it with the recovery key instead of the current passphrase.'
complete -c 'authcat' -n '__authcat_should_offer_completions_for_flags_or_options "authcat sync passphrase change" recovery-key-file' -l 'recovery-key-file' -d 'With --new-recovery-key, a new file to write the new recovery key to (mode 0600); with --use-recovery-key, the file to read the current one from.' -rF
complete -c 'authcat' -n '__authcat_should_offer_completions_for_flags_or_options "authcat sync passphrase change"' -l 'revoke' -d 'A device to cut off in the same step: its id, its unique name or a unique prefix of its id (repeat for several).' -rfka ''
complete -c 'authcat' -n '__authcat_should_offer_completions_for_flags_or_options "authcat sync passphrase change" keep-joined' -l 'keep-joined' -d 'Without a terminal, keep the devices joined since the passphrase was last set that --revoke does not name.'
complete -c 'authcat' -n '__authcat_should_offer_completions_for_flags_or_options "authcat sync passphrase change" json' -l 'json' -d 'Print what was done as JSON (docs/JSON.md).'
complete -c 'authcat' -n '__authcat_should_offer_completions_for_flags_or_options "authcat sync passphrase change" version' -l 'version' -d 'Show the version.'
complete -c 'authcat' -n '__authcat_should_offer_completions_for_flags_or_options "authcat sync passphrase change" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'authcat' -n '__authcat_should_offer_completions_for_flags_or_options "authcat sync rotate" home' -l 'home' -d 'The vault folder (default: $AUTHCAT_HOME, else $XDG_DATA_HOME/authcat if absolute, else ~/.local/share/authcat).' -rfa '(__authcat_complete_directories)'
complete -c 'authcat' -n '__authcat_should_offer_completions_for_flags_or_options "authcat sync rotate"' -l 'revoke' -d 'A device to cut off: its id, its unique name or a unique prefix of its id (repeat for several).' -rfka ''
complete -c 'authcat' -n '__authcat_should_offer_completions_for_flags_or_options "authcat sync rotate" y yes' -l 'yes' -s 'y' -d 'Do not ask for confirmation.'
complete -c 'authcat' -n '__authcat_should_offer_completions_for_flags_or_options "authcat sync rotate" use-recovery-key' -l 'use-recovery-key' -d 'Prove the right to rotate with the recovery key instead of the sync passphrase.'
complete -c 'authcat' -n '__authcat_should_offer_completions_for_flags_or_options "authcat sync rotate" recovery-key-file' -l 'recovery-key-file' -d 'With --use-recovery-key, the file to read it from.' -rF
complete -c 'authcat' -n '__authcat_should_offer_completions_for_flags_or_options "authcat sync rotate" json' -l 'json' -d 'Print what was done as JSON (docs/JSON.md).'
complete -c 'authcat' -n '__authcat_should_offer_completions_for_flags_or_options "authcat sync rotate" version' -l 'version' -d 'Show the version.'
complete -c 'authcat' -n '__authcat_should_offer_completions_for_flags_or_options "authcat sync rotate" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'authcat' -n '__authcat_should_offer_completions_for_flags_or_options "authcat doctor" home' -l 'home' -d 'The vault folder (default: $AUTHCAT_HOME, else $XDG_DATA_HOME/authcat if absolute, else ~/.local/share/authcat).' -rfa '(__authcat_complete_directories)'
complete -c 'authcat' -n '__authcat_should_offer_completions_for_flags_or_options "authcat doctor" server' -l 'server' -d 'The time server to ask: HOST or HOST:PORT (default: pool.ntp.org).' -rfka ''
complete -c 'authcat' -n '__authcat_should_offer_completions_for_flags_or_options "authcat doctor" timeout' -l 'timeout' -d 'How long to wait for the time server, in seconds (0.1 to 60).' -rfka ''
complete -c 'authcat' -n '__authcat_should_offer_completions_for_flags_or_options "authcat doctor" no-clock' -l 'no-clock' -d 'Do not ask a time server; skip the clock check.'
complete -c 'authcat' -n '__authcat_should_offer_completions_for_flags_or_options "authcat doctor" json' -l 'json' -d 'Print the findings as JSON.'
complete -c 'authcat' -n '__authcat_should_offer_completions_for_flags_or_options "authcat doctor" version' -l 'version' -d 'Show the version.'
complete -c 'authcat' -n '__authcat_should_offer_completions_for_flags_or_options "authcat doctor" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'authcat' -n '__authcat_should_offer_completions_for_flags_or_options "authcat help" version' -l 'version' -d 'Show the version.'
