"""What every game shares on Discord: the hub, the lobby, the buttons and click answers, the base
cog of ``/<game>`` commands and the storage adapter."""
