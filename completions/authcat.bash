#!/bin/bash

__authcat_cursor_index_in_current_word() {
    local remaining="${COMP_LINE}"

    local word
    for word in "${COMP_WORDS[@]::COMP_CWORD}"; do
        remaining="${remaining##*([[:space:]])"${word}"*([[:space:]])}"
    done

    local -ir index="$((COMP_POINT - ${#COMP_LINE} + ${#remaining}))"
    if [[ "${index}" -le 0 ]]; then
        printf 0
    else
        printf %s "${index}"
    fi
}

# positional arguments:
#
# - 1: the current (sub)command's count of positional arguments
#
# required variables:
#
# - repeating_flags: the repeating flags that the current (sub)command can accept
# - non_repeating_flags: the non-repeating flags that the current (sub)command can accept
# - repeating_options: the repeating options that the current (sub)command can accept
# - non_repeating_options: the non-repeating options that the current (sub)command can accept
# - positional_number: value ignored
# - unparsed_words: unparsed words from the current command line
#
# modified variables:
#
# - non_repeating_flags: remove flags for this (sub)command that are already on the command line
# - non_repeating_options: remove options for this (sub)command that are already on the command line
# - positional_number: set to the current positional number
# - unparsed_words: remove all flags, options, and option values for this (sub)command
__authcat_offer_flags_options() {
    local -ir positional_count="${1}"
    positional_number=0

    local was_flag_option_terminator_seen=false
    local is_parsing_option_value=false

    local -ar unparsed_word_indices=("${!unparsed_words[@]}")
    local -i word_index
    for word_index in "${unparsed_word_indices[@]}"; do
        if "${is_parsing_option_value}"; then
            # This word is an option value:
            # Reset marker for next word iff not currently the last word
            [[ "${word_index}" -ne "${unparsed_word_indices[${#unparsed_word_indices[@]} - 1]}" ]] && is_parsing_option_value=false
            unset "unparsed_words[${word_index}]"
            # Do not process this word as a flag or an option
            continue
        fi

        local word="${unparsed_words["${word_index}"]}"
        if ! "${was_flag_option_terminator_seen}"; then
            case "${word}" in
            --)
                unset "unparsed_words[${word_index}]"
                # by itself -- is a flag/option terminator, but if it is the last word, it is the start of a completion
                if [[ "${word_index}" -ne "${unparsed_word_indices[${#unparsed_word_indices[@]} - 1]}" ]]; then
                    was_flag_option_terminator_seen=true
                fi
                continue
                ;;
            -*)
                # ${word} is a flag or an option
                # If ${word} is an option, mark that the next word to be parsed is an option value
                local option
                for option in "${repeating_options[@]}" "${non_repeating_options[@]}"; do
                    [[ "${word}" = "${option}" ]] && is_parsing_option_value=true && break
                done

                # Remove ${word} from ${non_repeating_flags} or ${non_repeating_options} so it isn't offered again
                local not_found=true
                local -i index
                for index in "${!non_repeating_flags[@]}"; do
                    if [[ "${non_repeating_flags[${index}]}" = "${word}" ]]; then
                        unset "non_repeating_flags[${index}]"
                        non_repeating_flags=("${non_repeating_flags[@]}")
                        not_found=false
                        break
                    fi
                done
                if "${not_found}"; then
                    for index in "${!non_repeating_flags[@]}"; do
                        if [[ "${non_repeating_flags[${index}]}" = "${word}" ]]; then
                            unset "non_repeating_flags[${index}]"
                            non_repeating_flags=("${non_repeating_flags[@]}")
                            break
                        fi
                    done
                fi
                unset "unparsed_words[${word_index}]"
                continue
                ;;
            esac
        fi

        # ${word} is neither a flag, nor an option, nor an option value
        if [[ "${positional_number}" -lt "${positional_count}" || "${positional_count}" -lt 0 ]]; then
            # ${word} is a positional
            ((positional_number++))
            unset "unparsed_words[${word_index}]"
        else
            if [[ -z "${word}" ]]; then
                # Could be completing a flag, option, or subcommand
                positional_number=-1
            else
                # ${word} is a subcommand or invalid, so stop processing this (sub)command
                positional_number=-2
            fi
            break
        fi
    done

    unparsed_words=("${unparsed_words[@]}")

    if\
        ! "${was_flag_option_terminator_seen}"\
        && ! "${is_parsing_option_value}"\
        && [[ ("${cur}" = -* && "${positional_number}" -ge 0) || "${positional_number}" -eq -1 ]]
    then
        COMPREPLY+=($(compgen -W "${repeating_flags[*]} ${non_repeating_flags[*]} ${repeating_options[*]} ${non_repeating_options[*]}" -- "${cur}"))
    fi
}

__authcat_add_completions() {
    local completion
    while IFS='' read -r completion; do
        COMPREPLY+=("${completion}")
    done < <(IFS=$'\n' compgen "${@}" -- "${cur}")
}

__authcat_custom_complete() {
    if [[ -n "${cur}" || -z ${COMP_WORDS[${COMP_CWORD}]} || "${COMP_LINE:${COMP_POINT}:1}" != ' ' ]]; then
        local -ar words=("${COMP_WORDS[@]}")
    else
        local -ar words=("${COMP_WORDS[@]::${COMP_CWORD}}" '' "${COMP_WORDS[@]:${COMP_CWORD}}")
    fi

    "${COMP_WORDS[0]}" "${@}" "${words[@]}"
}

_authcat() {
    local state
    state="$(shopt -p;shopt -po)"
    trap "${state//$'\n'/;}" RETURN
    shopt -s extglob
    set +o history +o posix

    local -xr SAP_SHELL=bash
    local -x SAP_SHELL_VERSION
    SAP_SHELL_VERSION="$(IFS='.';printf %s "${BASH_VERSINFO[*]}")"
    local -r SAP_SHELL_VERSION

    local -r cur="${2}"
    local -r prev="${3}"

    local -i positional_number
    local -a unparsed_words=("${COMP_WORDS[@]:1:${COMP_CWORD}}")

    local -a repeating_flags=()
    local -a non_repeating_flags=(--version -h --help)
    local -a repeating_options=()
    local -a non_repeating_options=(--home)
    __authcat_offer_flags_options 0

    # Offer option value completions
    case "${prev}" in
    '--home')
        __authcat_add_completions -d
        return
        ;;
    esac

    # Offer subcommand / subcommand argument completions
    local -r subcommand="${unparsed_words[0]}"
    unset 'unparsed_words[0]'
    unparsed_words=("${unparsed_words[@]}")
    case "${subcommand}" in
    add|code|pick|list|show|edit|rm|restore|history|passphrase|unlock|lock|config|import|follow|export|backup|restore-backup|sync|doctor|help)
        # Offer subcommand argument completions
        "_authcat_${subcommand}"
        ;;
    *)
        # Offer subcommand completions
        COMPREPLY+=($(compgen -W 'add code pick list show edit rm restore history passphrase unlock lock config import follow export backup restore-backup sync doctor help' -- "${cur}"))
        ;;
    esac
}

_authcat_add() {
    repeating_flags=()
    non_repeating_flags=(--uri --version -h --help)
    repeating_options=(--tag)
    non_repeating_options=(--home --issuer --type --algorithm --digits --period --counter --note)
    __authcat_offer_flags_options 1

    # Offer option value completions
    case "${prev}" in
    '--home')
        __authcat_add_completions -d
        return
        ;;
    '--issuer')
        return
        ;;
    '--type')
        __authcat_add_completions -W 'totp'$'\n''hotp'$'\n''steam'$'\n''yandex'$'\n''motp'
        return
        ;;
    '--algorithm')
        __authcat_add_completions -W 'sha1'$'\n''sha256'$'\n''sha512'
        return
        ;;
    '--digits')
        return
        ;;
    '--period')
        return
        ;;
    '--counter')
        return
        ;;
    '--tag')
        return
        ;;
    '--note')
        return
        ;;
    esac
}

_authcat_code() {
    repeating_flags=()
    non_repeating_flags=(--json --copy --keep --type --type-enter --watch --version -h --help)
    repeating_options=()
    non_repeating_options=(--home --at)
    __authcat_offer_flags_options 1

    # Offer option value completions
    case "${prev}" in
    '--home')
        __authcat_add_completions -d
        return
        ;;
    '--at')
        return
        ;;
    esac

    # Offer positional completions
    case "${positional_number}" in
    1)
        __authcat_add_custom_completions "$(__authcat_custom_complete ---completion code -- positional@0 "${COMP_CWORD}" "$(__authcat_cursor_index_in_current_word)")"
        return
        ;;
    esac
}

_authcat_pick() {
    repeating_flags=()
    non_repeating_flags=(--copy --type --print --type-enter --keep --version -h --help)
    repeating_options=()
    non_repeating_options=(--home --menu --menu-command)
    __authcat_offer_flags_options 1

    # Offer option value completions
    case "${prev}" in
    '--home')
        __authcat_add_completions -d
        return
        ;;
    '--menu')
        __authcat_add_completions -W 'fzf'$'\n''rofi'$'\n''wofi'$'\n''fuzzel'$'\n''bemenu'$'\n''dmenu'
        return
        ;;
    '--menu-command')
        return
        ;;
    esac

    # Offer positional completions
    case "${positional_number}" in
    1)
        __authcat_add_custom_completions "$(__authcat_custom_complete ---completion pick -- positional@0 "${COMP_CWORD}" "$(__authcat_cursor_index_in_current_word)")"
        return
        ;;
    esac
}

_authcat_list() {
    repeating_flags=()
    non_repeating_flags=(--json --removed --version -h --help)
    repeating_options=(--tag)
    non_repeating_options=(--home)
    __authcat_offer_flags_options 0

    # Offer option value completions
    case "${prev}" in
    '--home')
        __authcat_add_completions -d
        return
        ;;
    '--tag')
        __authcat_add_custom_completions "$(__authcat_custom_complete ---completion list -- --tag "${COMP_CWORD}" "$(__authcat_cursor_index_in_current_word)")"
        return
        ;;
    esac
}

_authcat_show() {
    repeating_flags=()
    non_repeating_flags=(--uri --qr --json --version -h --help)
    repeating_options=()
    non_repeating_options=(--home)
    __authcat_offer_flags_options 1

    # Offer option value completions
    case "${prev}" in
    '--home')
        __authcat_add_completions -d
        return
        ;;
    esac

    # Offer positional completions
    case "${positional_number}" in
    1)
        __authcat_add_custom_completions "$(__authcat_custom_complete ---completion show -- positional@0 "${COMP_CWORD}" "$(__authcat_cursor_index_in_current_word)")"
        return
        ;;
    esac
}

_authcat_edit() {
    repeating_flags=()
    non_repeating_flags=(--clear-tags --version -h --help)
    repeating_options=(--tag --untag)
    non_repeating_options=(--home --issuer --name --note)
    __authcat_offer_flags_options 1

    # Offer option value completions
    case "${prev}" in
    '--home')
        __authcat_add_completions -d
        return
        ;;
    '--issuer')
        return
        ;;
    '--name')
        return
        ;;
    '--tag')
        __authcat_add_custom_completions "$(__authcat_custom_complete ---completion edit -- --tag "${COMP_CWORD}" "$(__authcat_cursor_index_in_current_word)")"
        return
        ;;
    '--untag')
        __authcat_add_custom_completions "$(__authcat_custom_complete ---completion edit -- --untag "${COMP_CWORD}" "$(__authcat_cursor_index_in_current_word)")"
        return
        ;;
    '--note')
        return
        ;;
    esac

    # Offer positional completions
    case "${positional_number}" in
    1)
        __authcat_add_custom_completions "$(__authcat_custom_complete ---completion edit -- positional@0 "${COMP_CWORD}" "$(__authcat_cursor_index_in_current_word)")"
        return
        ;;
    esac
}

_authcat_rm() {
    repeating_flags=()
    non_repeating_flags=(-y --yes --version -h --help)
    repeating_options=()
    non_repeating_options=(--home)
    __authcat_offer_flags_options 1

    # Offer option value completions
    case "${prev}" in
    '--home')
        __authcat_add_completions -d
        return
        ;;
    esac

    # Offer positional completions
    case "${positional_number}" in
    1)
        __authcat_add_custom_completions "$(__authcat_custom_complete ---completion rm -- positional@0 "${COMP_CWORD}" "$(__authcat_cursor_index_in_current_word)")"
        return
        ;;
    esac
}

_authcat_restore() {
    repeating_flags=()
    non_repeating_flags=(--version -h --help)
    repeating_options=()
    non_repeating_options=(--home)
    __authcat_offer_flags_options 1

    # Offer option value completions
    case "${prev}" in
    '--home')
        __authcat_add_completions -d
        return
        ;;
    esac

    # Offer positional completions
    case "${positional_number}" in
    1)
        __authcat_add_custom_completions "$(__authcat_custom_complete ---completion restore -- positional@0 "${COMP_CWORD}" "$(__authcat_cursor_index_in_current_word)")"
        return
        ;;
    esac
}

_authcat_history() {
    repeating_flags=()
    non_repeating_flags=(--json --all-changes --version -h --help)
    repeating_options=()
    non_repeating_options=(--home --limit)
    __authcat_offer_flags_options 1

    # Offer option value completions
    case "${prev}" in
    '--home')
        __authcat_add_completions -d
        return
        ;;
    '--limit')
        return
        ;;
    esac

    # Offer positional completions
    case "${positional_number}" in
    1)
        __authcat_add_custom_completions "$(__authcat_custom_complete ---completion history -- positional@0 "${COMP_CWORD}" "$(__authcat_cursor_index_in_current_word)")"
        return
        ;;
    esac
}

_authcat_passphrase() {
    repeating_flags=()
    non_repeating_flags=(--version -h --help)
    repeating_options=()
    non_repeating_options=()
    __authcat_offer_flags_options 0

    # Offer subcommand / subcommand argument completions
    local -r subcommand="${unparsed_words[0]}"
    unset 'unparsed_words[0]'
    unparsed_words=("${unparsed_words[@]}")
    case "${subcommand}" in
    set|change|remove)
        # Offer subcommand argument completions
        "_authcat_passphrase_${subcommand}"
        ;;
    *)
        # Offer subcommand completions
        COMPREPLY+=($(compgen -W 'set change remove' -- "${cur}"))
        ;;
    esac
}

_authcat_passphrase_set() {
    repeating_flags=()
    non_repeating_flags=(--version -h --help)
    repeating_options=()
    non_repeating_options=(--home)
    __authcat_offer_flags_options 0

    # Offer option value completions
    case "${prev}" in
    '--home')
        __authcat_add_completions -d
        return
        ;;
    esac
}

_authcat_passphrase_change() {
    repeating_flags=()
    non_repeating_flags=(--version -h --help)
    repeating_options=()
    non_repeating_options=(--home)
    __authcat_offer_flags_options 0

    # Offer option value completions
    case "${prev}" in
    '--home')
        __authcat_add_completions -d
        return
        ;;
    esac
}

_authcat_passphrase_remove() {
    repeating_flags=()
    non_repeating_flags=(--version -h --help)
    repeating_options=()
    non_repeating_options=(--home)
    __authcat_offer_flags_options 0

    # Offer option value completions
    case "${prev}" in
    '--home')
        __authcat_add_completions -d
        return
        ;;
    esac
}

_authcat_unlock() {
    repeating_flags=()
    non_repeating_flags=(--status --json --version -h --help)
    repeating_options=()
    non_repeating_options=(--home --for)
    __authcat_offer_flags_options 0

    # Offer option value completions
    case "${prev}" in
    '--home')
        __authcat_add_completions -d
        return
        ;;
    '--for')
        return
        ;;
    esac
}

_authcat_lock() {
    repeating_flags=()
    non_repeating_flags=(--version -h --help)
    repeating_options=()
    non_repeating_options=(--home)
    __authcat_offer_flags_options 0

    # Offer option value completions
    case "${prev}" in
    '--home')
        __authcat_add_completions -d
        return
        ;;
    esac
}

_authcat_config() {
    repeating_flags=()
    non_repeating_flags=(--version -h --help)
    repeating_options=()
    non_repeating_options=()
    __authcat_offer_flags_options 0

    # Offer subcommand / subcommand argument completions
    local -r subcommand="${unparsed_words[0]}"
    unset 'unparsed_words[0]'
    unparsed_words=("${unparsed_words[@]}")
    case "${subcommand}" in
    get|set|unset|list)
        # Offer subcommand argument completions
        "_authcat_config_${subcommand}"
        ;;
    *)
        # Offer subcommand completions
        COMPREPLY+=($(compgen -W 'get set unset list' -- "${cur}"))
        ;;
    esac
}

_authcat_config_get() {
    repeating_flags=()
    non_repeating_flags=(--synced --json --version -h --help)
    repeating_options=()
    non_repeating_options=(--home)
    __authcat_offer_flags_options 1

    # Offer option value completions
    case "${prev}" in
    '--home')
        __authcat_add_completions -d
        return
        ;;
    esac
}

_authcat_config_set() {
    repeating_flags=()
    non_repeating_flags=(--synced --version -h --help)
    repeating_options=()
    non_repeating_options=(--home)
    __authcat_offer_flags_options 2

    # Offer option value completions
    case "${prev}" in
    '--home')
        __authcat_add_completions -d
        return
        ;;
    esac
}

_authcat_config_unset() {
    repeating_flags=()
    non_repeating_flags=(--synced --version -h --help)
    repeating_options=()
    non_repeating_options=(--home)
    __authcat_offer_flags_options 1

    # Offer option value completions
    case "${prev}" in
    '--home')
        __authcat_add_completions -d
        return
        ;;
    esac
}

_authcat_config_list() {
    repeating_flags=()
    non_repeating_flags=(--synced --json --version -h --help)
    repeating_options=()
    non_repeating_options=(--home)
    __authcat_offer_flags_options 0

    # Offer option value completions
    case "${prev}" in
    '--home')
        __authcat_add_completions -d
        return
        ;;
    esac
}

_authcat_import() {
    repeating_flags=()
    non_repeating_flags=(--qr --dry-run --skip-invalid --json --verbose --version -h --help)
    repeating_options=()
    non_repeating_options=(--home --format)
    __authcat_offer_flags_options 1

    # Offer option value completions
    case "${prev}" in
    '--home')
        __authcat_add_completions -d
        return
        ;;
    '--format')
        __authcat_add_completions -W 'otpauth'$'\n''google'$'\n''aegis'$'\n''2fas'$'\n''andotp'$'\n''bitwarden'$'\n''authcat'$'\n''stratum'$'\n''ente'$'\n''freeotp'$'\n''freeotp-plus'$'\n''steam'$'\n''authy'$'\n''battlenet'$'\n''duo'$'\n''proton'$'\n''google-db'$'\n''microsoft'$'\n''pass'$'\n''keepassxc'$'\n''1password'$'\n''protonpass'$'\n''keepass-xml'$'\n''totp-authenticator'$'\n''lastpass'
        return
        ;;
    esac

    # Offer positional completions
    case "${positional_number}" in
    1)
        __authcat_add_completions -f
        return
        ;;
    esac
}

_authcat_follow() {
    repeating_flags=()
    non_repeating_flags=(--version -h --help)
    repeating_options=()
    non_repeating_options=()
    __authcat_offer_flags_options 0

    # Offer subcommand / subcommand argument completions
    local -r subcommand="${unparsed_words[0]}"
    unset 'unparsed_words[0]'
    unparsed_words=("${unparsed_words[@]}")
    case "${subcommand}" in
    add|now|list|remove)
        # Offer subcommand argument completions
        "_authcat_follow_${subcommand}"
        ;;
    *)
        # Offer subcommand completions
        COMPREPLY+=($(compgen -W 'add now list remove' -- "${cur}"))
        ;;
    esac
}

_authcat_follow_add() {
    repeating_flags=()
    non_repeating_flags=(--json --version -h --help)
    repeating_options=()
    non_repeating_options=(--home --format --name)
    __authcat_offer_flags_options 1

    # Offer option value completions
    case "${prev}" in
    '--home')
        __authcat_add_completions -d
        return
        ;;
    '--format')
        __authcat_add_completions -W 'otpauth'$'\n''google'$'\n''aegis'$'\n''2fas'$'\n''andotp'$'\n''bitwarden'$'\n''authcat'$'\n''stratum'$'\n''ente'$'\n''freeotp'$'\n''freeotp-plus'$'\n''steam'$'\n''authy'$'\n''battlenet'$'\n''duo'$'\n''proton'$'\n''google-db'$'\n''microsoft'$'\n''pass'$'\n''keepassxc'$'\n''1password'$'\n''protonpass'$'\n''keepass-xml'$'\n''totp-authenticator'$'\n''lastpass'
        return
        ;;
    '--name')
        return
        ;;
    esac

    # Offer positional completions
    case "${positional_number}" in
    1)
        __authcat_add_completions -f
        return
        ;;
    esac
}

_authcat_follow_now() {
    repeating_flags=()
    non_repeating_flags=(--json --watch --version -h --help)
    repeating_options=()
    non_repeating_options=(--home)
    __authcat_offer_flags_options -1

    # Offer option value completions
    case "${prev}" in
    '--home')
        __authcat_add_completions -d
        return
        ;;
    esac
}

_authcat_follow_list() {
    repeating_flags=()
    non_repeating_flags=(--json --version -h --help)
    repeating_options=()
    non_repeating_options=(--home)
    __authcat_offer_flags_options 0

    # Offer option value completions
    case "${prev}" in
    '--home')
        __authcat_add_completions -d
        return
        ;;
    esac
}

_authcat_follow_remove() {
    repeating_flags=()
    non_repeating_flags=(--version -h --help)
    repeating_options=()
    non_repeating_options=(--home)
    __authcat_offer_flags_options 1

    # Offer option value completions
    case "${prev}" in
    '--home')
        __authcat_add_completions -d
        return
        ;;
    esac
}

_authcat_export() {
    repeating_flags=()
    non_repeating_flags=(--encrypt --force --stdout --qr --version -h --help)
    repeating_options=()
    non_repeating_options=(--home --format --output)
    __authcat_offer_flags_options 0

    # Offer option value completions
    case "${prev}" in
    '--home')
        __authcat_add_completions -d
        return
        ;;
    '--format')
        __authcat_add_completions -W 'otpauth'$'\n''google'$'\n''aegis'$'\n''2fas'$'\n''json'
        return
        ;;
    '--output')
        __authcat_add_completions -f
        return
        ;;
    esac
}

_authcat_backup() {
    repeating_flags=()
    non_repeating_flags=(--force --with-history --json --version -h --help)
    repeating_options=()
    non_repeating_options=(--home --output --output-dir --keep --verify --kdf)
    __authcat_offer_flags_options 0

    # Offer option value completions
    case "${prev}" in
    '--home')
        __authcat_add_completions -d
        return
        ;;
    '--output')
        __authcat_add_completions -f
        return
        ;;
    '--output-dir')
        __authcat_add_completions -d
        return
        ;;
    '--keep')
        return
        ;;
    '--verify')
        __authcat_add_completions -f
        return
        ;;
    '--kdf')
        __authcat_add_completions -W 'interactive'$'\n''moderate'$'\n''sensitive'
        return
        ;;
    esac
}

_authcat_restore-backup() {
    repeating_flags=()
    non_repeating_flags=(--dry-run --json --verbose --version -h --help)
    repeating_options=()
    non_repeating_options=(--home)
    __authcat_offer_flags_options 1

    # Offer option value completions
    case "${prev}" in
    '--home')
        __authcat_add_completions -d
        return
        ;;
    esac

    # Offer positional completions
    case "${positional_number}" in
    1)
        __authcat_add_completions -f
        return
        ;;
    esac
}

_authcat_sync() {
    repeating_flags=()
    non_repeating_flags=(--version -h --help)
    repeating_options=()
    non_repeating_options=()
    __authcat_offer_flags_options 0

    # Offer subcommand / subcommand argument completions
    local -r subcommand="${unparsed_words[0]}"
    unset 'unparsed_words[0]'
    unparsed_words=("${unparsed_words[@]}")
    case "${subcommand}" in
    enable|disable|now|compact|watch|status|devices|passphrase|rotate)
        # Offer subcommand argument completions
        "_authcat_sync_${subcommand}"
        ;;
    *)
        # Offer subcommand completions
        COMPREPLY+=($(compgen -W 'enable disable now compact watch status devices passphrase rotate' -- "${cur}"))
        ;;
    esac
}

_authcat_sync_enable() {
    repeating_flags=()
    non_repeating_flags=(--use-recovery-key --allow-http --join-different-vault --version -h --help)
    repeating_options=()
    non_repeating_options=(--home --remote --recovery-key-file --device-name)
    __authcat_offer_flags_options 0

    # Offer option value completions
    case "${prev}" in
    '--home')
        __authcat_add_completions -d
        return
        ;;
    '--remote')
        return
        ;;
    '--recovery-key-file')
        __authcat_add_completions -f
        return
        ;;
    '--device-name')
        return
        ;;
    esac
}

_authcat_sync_disable() {
    repeating_flags=()
    non_repeating_flags=(--everywhere --delete-remote --yes -y --version -h --help)
    repeating_options=()
    non_repeating_options=(--home)
    __authcat_offer_flags_options 0

    # Offer option value completions
    case "${prev}" in
    '--home')
        __authcat_add_completions -d
        return
        ;;
    esac
}

_authcat_sync_now() {
    repeating_flags=()
    non_repeating_flags=(--json --version -h --help)
    repeating_options=()
    non_repeating_options=(--home)
    __authcat_offer_flags_options 0

    # Offer option value completions
    case "${prev}" in
    '--home')
        __authcat_add_completions -d
        return
        ;;
    esac
}

_authcat_sync_compact() {
    repeating_flags=()
    non_repeating_flags=(--json --version -h --help)
    repeating_options=()
    non_repeating_options=(--home)
    __authcat_offer_flags_options 0

    # Offer option value completions
    case "${prev}" in
    '--home')
        __authcat_add_completions -d
        return
        ;;
    esac
}

_authcat_sync_watch() {
    repeating_flags=()
    non_repeating_flags=(--version -h --help)
    repeating_options=()
    non_repeating_options=(--home --interval)
    __authcat_offer_flags_options 0

    # Offer option value completions
    case "${prev}" in
    '--home')
        __authcat_add_completions -d
        return
        ;;
    '--interval')
        return
        ;;
    esac
}

_authcat_sync_status() {
    repeating_flags=()
    non_repeating_flags=(--json --offline --short --version -h --help)
    repeating_options=()
    non_repeating_options=(--home)
    __authcat_offer_flags_options 0

    # Offer option value completions
    case "${prev}" in
    '--home')
        __authcat_add_completions -d
        return
        ;;
    esac
}

_authcat_sync_devices() {
    repeating_flags=()
    non_repeating_flags=(--version -h --help)
    repeating_options=()
    non_repeating_options=()
    __authcat_offer_flags_options 0

    # Offer subcommand / subcommand argument completions
    local -r subcommand="${unparsed_words[0]}"
    unset 'unparsed_words[0]'
    unparsed_words=("${unparsed_words[@]}")
    case "${subcommand}" in
    list|rename)
        # Offer subcommand argument completions
        "_authcat_sync_devices_${subcommand}"
        ;;
    *)
        # Offer subcommand completions
        COMPREPLY+=($(compgen -W 'list rename' -- "${cur}"))
        ;;
    esac
}

_authcat_sync_devices_list() {
    repeating_flags=()
    non_repeating_flags=(--json --version -h --help)
    repeating_options=()
    non_repeating_options=(--home)
    __authcat_offer_flags_options 1

    # Offer option value completions
    case "${prev}" in
    '--home')
        __authcat_add_completions -d
        return
        ;;
    esac
}

_authcat_sync_devices_rename() {
    repeating_flags=()
    non_repeating_flags=(--version -h --help)
    repeating_options=()
    non_repeating_options=(--home)
    __authcat_offer_flags_options 1

    # Offer option value completions
    case "${prev}" in
    '--home')
        __authcat_add_completions -d
        return
        ;;
    esac
}

_authcat_sync_passphrase() {
    repeating_flags=()
    non_repeating_flags=(--version -h --help)
    repeating_options=()
    non_repeating_options=()
    __authcat_offer_flags_options 0

    # Offer subcommand / subcommand argument completions
    local -r subcommand="${unparsed_words[0]}"
    unset 'unparsed_words[0]'
    unparsed_words=("${unparsed_words[@]}")
    case "${subcommand}" in
    change)
        # Offer subcommand argument completions
        "_authcat_sync_passphrase_${subcommand}"
        ;;
    *)
        # Offer subcommand completions
        COMPREPLY+=($(compgen -W 'change' -- "${cur}"))
        ;;
    esac
}

_authcat_sync_passphrase_change() {
    repeating_flags=()
    non_repeating_flags=(--new-recovery-key --use-recovery-key --keep-joined --json --version -h --help)
    repeating_options=(--revoke)
    non_repeating_options=(--home --recovery-key-file)
    __authcat_offer_flags_options 0

    # Offer option value completions
    case "${prev}" in
    '--home')
        __authcat_add_completions -d
        return
        ;;
    '--recovery-key-file')
        __authcat_add_completions -f
        return
        ;;
    '--revoke')
        return
        ;;
    esac
}

_authcat_sync_rotate() {
    repeating_flags=()
    non_repeating_flags=(--yes -y --use-recovery-key --json --version -h --help)
    repeating_options=(--revoke)
    non_repeating_options=(--home --recovery-key-file)
    __authcat_offer_flags_options 0

    # Offer option value completions
    case "${prev}" in
    '--home')
        __authcat_add_completions -d
        return
        ;;
    '--revoke')
        return
        ;;
    '--recovery-key-file')
        __authcat_add_completions -f
        return
        ;;
    esac
}

_authcat_doctor() {
    repeating_flags=()
    non_repeating_flags=(--no-clock --json --version -h --help)
    repeating_options=()
    non_repeating_options=(--home --server --timeout)
    __authcat_offer_flags_options 0

    # Offer option value completions
    case "${prev}" in
    '--home')
        __authcat_add_completions -d
        return
        ;;
    '--server')
        return
        ;;
    '--timeout')
        return
        ;;
    esac
}

_authcat_help() {
    repeating_flags=()
    non_repeating_flags=(--version)
    repeating_options=()
    non_repeating_options=()
    __authcat_offer_flags_options -1
}

# authcat: candidates from authcat's own completion (account names) are
# already matched the way `authcat code` matches, and written as readline
# should put them on the line; so they are neither filtered by prefix
# again nor quoted or shown as file names (which would escape every
# colon, and show only what follows a slash). Names that match only
# in their middle come with the word as typed, which leaves readline
# no common start to put in (see BashCompletionReply).
__authcat_add_custom_completions() {
    local candidate
    local -a candidates=()
    while IFS='' read -r candidate; do
        [[ -n "${candidate}" ]] && candidates+=("${candidate}")
    done <<<"${1}"
    compopt +o filenames 2>/dev/null
    COMPREPLY+=("${candidates[@]}")
}

# authcat: bash splits a word at the characters of COMP_WORDBREAKS, so
# GitHub:alice arrives as three words; join what was split at : = and @
# (they cannot start another command) so that the generated functions
# count arguments right and authcat sees the whole word.
_authcat_whole_words() {
    local -a joined=()
    local -i joined_cword=0 index
    local line="${COMP_LINE}" word
    for index in "${!COMP_WORDS[@]}"; do
        word="${COMP_WORDS[${index}]}"
        local spaced=false
        if [[ "${line}" =~ ^[[:space:]]+ ]]; then
            spaced=true
            line="${line:${#BASH_REMATCH[0]}}"
        fi
        line="${line#"${word}"}"
        if [[ "${index}" -gt 0 ]] && ! "${spaced}" \
            && [[ "${word}" =~ ^[:=@]+$ || "${COMP_WORDS[${index} - 1]}" =~ ^[:=@]+$ ]]; then
            joined[-1]+="${word}"
        else
            joined+=("${word}")
        fi
        [[ "${index}" -eq "${COMP_CWORD}" ]] && joined_cword="$((${#joined[@]} - 1))"
    done
    local -r current="${joined[${joined_cword}]}"
    local -r typed="${current%"${COMP_WORDS[${COMP_CWORD}]}"}${2}"
    local -a COMP_WORDS=("${joined[@]}")
    local -i COMP_CWORD="${joined_cword}"
    local -x AUTHCAT_COMP_WORDBREAKS="${COMP_WORDBREAKS}"
    _authcat "${1}" "${typed}" "${COMP_WORDS[${COMP_CWORD} - 1]}"
}

complete -o filenames -F _authcat_whole_words authcat
