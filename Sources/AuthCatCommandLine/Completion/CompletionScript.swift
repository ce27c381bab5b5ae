import ArgumentParser
import AuthCatEssentials

/// The shell completion scripts: swift-argument-parser's, generated from the
/// command tree, with account names completed the way `authcat code` matches
/// them (`AccountCompletion`).
///
/// The generated scripts filter what a custom completion returns by prefix,
/// case included (bash's `compgen -W`, zsh's `_describe`), so `gi` and `alice`
/// complete nothing; and bash splits `GitHub:alice` into three words at the
/// colon, miscounting the arguments. So in bash the words split at `:`, `=`
/// and `@` are joined again before the generated function runs, and
/// authcat's candidates go into `COMPREPLY` as they are; in zsh they are added
/// with a matcher that ignores case and matches anywhere in the label. fish
/// matches that way by itself. A change to the generator that moves what is
/// replaced here makes `script(for:)` throw, and the completion tests fail.
enum CompletionScript {
    struct GeneratorChanged: Error, CustomStringConvertible {
        var shell: CompletionShell
        var description: String {
            "swift-argument-parser's \(shell.rawValue) completion script has changed; update CompletionScript"
        }
    }

    /// The shell named by a command line that asks only for a completion
    /// script (`--generate-completion-script [SHELL]`; without SHELL, the
    /// login shell), or nil: then swift-argument-parser answers, errors included.
    /// - Throws: `ValidationError` for a shell there is no script for, which
    ///   swift-argument-parser would report as an unknown command.
    static func requestedShell(in arguments: [String]) throws -> CompletionShell? {
        let option = "--generate-completion-script"
        var scanner = ArgumentScanner(arguments, optionsTakingValue: [option])
        guard case .option(option, let shell) = scanner.next(), scanner.next() == nil else { return nil }
        guard let shell else { return CompletionShell.autodetected() }
        guard let known = CompletionShell(rawValue: shell) else {
            let shells = CompletionShell.allCases.map(\.rawValue).joined(separator: ", ")
            throw ValidationError("there is no completion script for '\(shell)'; the shells are \(shells)")
        }
        return known
    }

    static func script(for shell: CompletionShell) throws -> String {
        let generated = AuthCat.completionScript(for: shell)
        switch shell {
        case .bash:
            return try replacing(
                bashAccountCall, with: bashAccountCallReplacement,
                then: bashRegistration, with: bashAdditions, in: generated, shell: shell)
        case .zsh:
            return try replacing(zshAccountCall, with: zshAccountCallReplacement, in: generated, shell: shell)
        default:
            return generated
        }
    }

    private static func replacing(
        _ target: String, with replacement: String, then second: String? = nil,
        with secondReplacement: String = "", in script: String,
        shell: CompletionShell
    ) throws -> String {
        guard script.contains(target), second.map(script.contains) ?? true else { throw GeneratorChanged(shell: shell) }
        let replaced = script.replacingOccurrences(of: target, with: replacement)
        guard let second else { return replaced }
        return replaced.replacingOccurrences(of: second, with: secondReplacement)
    }

    // MARK: bash

    private static let bashAccountCall = #"__authcat_add_completions -W "$(__authcat_custom_complete "#
    private static let bashAccountCallReplacement = #"__authcat_add_custom_completions "$(__authcat_custom_complete "#
    private static let bashRegistration = "complete -o filenames -F _authcat authcat"

    private static let bashAdditions = #"""
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
        """#

    // MARK: zsh

    private static let zshAccountCall = #"""
            if [[ "${#completions[@]}" -gt 1 ]]; then
                __authcat_complete "${completions[@]:0:-1}"
            fi
        """#

    /// authcat's last line is a placeholder (see `CompletionShell.format`).
    private static let zshAccountCallReplacement = #"""
            # authcat: account names are matched the way `authcat code` matches
            # them: case and accents ignored, anywhere in the label. One name
            # replaces the word, whatever was typed: a whole name always runs.
            # With several, none is ever picked for the user (no menu at a
            # later Tab), and the word grows only to a start they share, which
            # `code` takes as all of them (`GitLab:`). Names that match only in
            # their middle are listed, the word as typed.
            # (Counted outside (( )), which would join the names into one word.)
            completions=("${(@)${(@)completions[1,-2]}:#}")
            local authcat_typed="${PREFIX}${SUFFIX}"
            local -a authcat_begun=("${(@M)completions:#(#i)${(b)authcat_typed}*}")
            if (( ${#completions} == 1 )); then
                compadd -U -a completions
            elif (( ${#authcat_begun} < ${#completions} )); then
                compadd -U -V authcat-accounts -a completions
                compstate[insert]=''
                compstate[list]='list force'
            elif (( ${#completions} > 1 )); then
                compadd -M 'm:{[:lower:][:upper:]}={[:upper:][:lower:]}' -a completions
                compstate[insert]='unambiguous'
                (( ${#compstate[unambiguous]} > ${#authcat_typed} )) || compstate[list]='list force'
            fi
        """#
}
