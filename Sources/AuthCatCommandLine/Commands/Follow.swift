import ArgumentParser

extension AuthCat {
    /// `authcat follow …`: files another app keeps writing, whose accounts the vault follows.
    struct Follow: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "follow",
            abstract: "Keep the vault in step with a backup file another app keeps writing.",
            discussion: """
                Aegis and 2FAS can write a backup file whenever their accounts change, and \
                Syncthing or Nextcloud can bring it to this computer. 'authcat follow add FILE' \
                imports it and remembers it; 'authcat follow now' then applies what changed in \
                it: an entry added there is added here, one changed there is changed here, one \
                removed there is removed here ('authcat restore' brings it back). Accounts that \
                did not come from the file are never touched. History names the file as the \
                author, follow:NAME.

                An entry is followed across renames by its id when the format has one (Aegis), \
                else by its secret. A field edited here and also changed in the file takes the \
                file's value; history keeps both, and 'follow now' says so. A field edited here \
                that the file did not change keeps the edit.

                The password of an encrypted file is asked once (or read from \
                AUTHCAT_IMPORT_PASSPHRASE_FILE) and kept sealed in the vault, so that \
                'follow now' runs from cron or a systemd timer. When it no longer opens the \
                file, it is asked again on a terminal; without one, 'follow now' reports it \
                and exits 1.

                Any format 'authcat import' reads can be followed.

                Examples:
                  authcat follow add ~/Sync/aegis/aegis-backup.json --name phone
                  authcat follow now
                  authcat follow now --watch
                  authcat follow list --json
                  authcat follow remove phone
                """,
            subcommands: [FollowAdd.self, FollowNow.self, FollowList.self, FollowRemove.self])
    }
}
